/**
 * How a predict() call's rows are cut into ONNX runs. On a CPU a padding token costs as much as a real one, and a
 * large model's cost is all in its tokens, so rows of similar length go together and runs are cut where lengths
 * jump; a small model's cost is more in the runs themselves, so its runs stay large. BENCHMARKS.md ("BERT-base at
 * the speed of the hardware") measured both and the overhead constants below.
 */

/** How rows are cut into ONNX runs (see runsOf). */
export interface RunLimits {
  /** Most rows in one run. */
  rows: number;
  /** Most tokens in one run, rows × the run's padded length (a row longer than this runs alone). */
  tokens: number;
  /**
   * What one more run costs, in tokens of compute: onnxruntime's fixed cost per run and the lower efficiency of small
   * matrix products. Small for a large model on a CPU (a padding token costs as much as real work), large for a
   * small model (splitting runs costs more than the padding it saves).
   */
  overhead: number;
}

/**
 * The ONNX runs for rows of these lengths, as lists of row indices: the rows sorted by length (stable, so equal
 * lengths keep their order), cut into runs of consecutive rows so that runs × overhead + the tokens computed
 * (each run's rows × its longest row) is least, within the row and token limits (dynamic programming over the
 * sorted rows). Padding costs compute on every row of a run; a run costs its overhead: lengths that differ much go
 * in separate runs only where the padding saved outweighs the extra run. Depends on the lengths alone, so the
 * same rows are cut the same way every time.
 */
export function runsOf(lengths: readonly number[], limits: RunLimits): number[][] {
  const order = lengths.map((_, i) => i).sort((x, y) => lengths[x]! - lengths[y]!);
  const n = order.length;
  // cost[j]: least cost of the first j sorted rows; from[j]: where the last run of that best cut starts.
  const cost = new Float64Array(n + 1);
  const from = new Int32Array(n + 1);
  for (let j = 1; j <= n; j++) {
    const width = lengths[order[j - 1]!]!;
    cost[j] = Infinity;
    for (let i = j - 1; i >= 0 && j - i <= limits.rows; i--) {
      if (j - i > 1 && (j - i) * width > limits.tokens) break;
      const c = cost[i]! + limits.overhead + (j - i) * width;
      if (c < cost[j]!) {
        cost[j] = c;
        from[j] = i;
      }
    }
  }
  const runs: number[][] = [];
  for (let j = n; j > 0; j = from[j]!) runs.push(order.slice(from[j], j));
  return runs.reverse();
}

/**
 * A run's overhead in tokens of compute for a model of this shape (config.json), on a CPU: a constant for the lower
 * efficiency of small matrix products, plus onnxruntime's fixed cost per node as a share of one token's work in a
 * layer (8H² + 4HI multiply-adds ×2). Other devices gain from large runs whatever the model: their runs stay large.
 */
export function runOverheadFor(config: Record<string, unknown>, device?: string): number {
  if (device !== undefined && device !== 'cpu') return GPU_RUN_OVERHEAD;
  const num = (...keys: string[]): number | undefined => {
    for (const k of keys) if (typeof config[k] === 'number' && (config[k] as number) > 0) return config[k] as number;
    return undefined;
  };
  const h = num('hidden_size', 'dim', 'd_model');
  const inter = num('intermediate_size', 'hidden_dim', 'd_ff') ?? (h ? 4 * h : undefined);
  if (!h || !inter) return UNKNOWN_RUN_OVERHEAD;
  const perTokenLayer = 2 * (4 * h * h + 2 * h * inter);
  return Math.round(SMALL_GEMM_TOKENS + NODE_COST_FLOPS / perTokenLayer);
}

/** Tokens a run of small matrix products loses to their lower efficiency (fitted; BENCHMARKS.md). */
const SMALL_GEMM_TOKENS = 12;
/** onnxruntime's fixed cost of one layer's nodes, in FLOPs of this CPU's matrix-multiply rate (fitted; BENCHMARKS.md). */
const NODE_COST_FLOPS = 3.5e6;
const GPU_RUN_OVERHEAD = 4096;
const UNKNOWN_RUN_OVERHEAD = 64;
