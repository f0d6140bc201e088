import type { ModelInput, ModelOutput } from '../models/types.ts';
import type { QueryEngine } from './engine.ts';
import { queryKey } from './key.ts';

/**
 * Per-example accounting that does not depend on what other examples ran at the same time, so the
 * numbers are identical in a resumed and an uninterrupted run: `queries` = distinct inputs this attack
 * asked for (what the user pays for), `requests` = every input it asked for, repeats included, `cacheHits` = its
 * requests for inputs it had already asked for. A repeat is answered from the session's own answers and never goes
 * to the engine: an answer this example already has is never sent again, whatever the shared cache has evicted since.
 */
export class QuerySession {
  /** This example's answers by query key (bounded by its distinct queries, which --max-queries can cap). */
  private readonly answers = new Map<string, Promise<ModelOutput>>();
  requests = 0;
  queries = 0;
  cacheHits = 0;
  /** Tokens of this attack's distinct queries, as a metered model billed them (whether paid now or cached). */
  readonly tokens = { input: 0, output: 0 };
  /** Whether any answer reported token usage. */
  metered = false;
  /** Distinct queries whose answer could not be mapped to an output. */
  unmappable = 0;

  constructor(
    private readonly engine: QueryEngine,
    /** Most distinct queries this attack may ask (TextAttack's query budget); a call that would pass it is refused whole. */
    readonly maxQueries?: number,
  ) {}

  async query(inputs: readonly ModelInput[]): Promise<ModelOutput[]> {
    const keys = inputs.map(queryKey);
    if (this.maxQueries !== undefined) {
      const fresh = new Set(keys.filter((k) => !this.answers.has(k))).size;
      if (this.queries + fresh > this.maxQueries) throw new QueryBudgetError(this.maxQueries, this.queries, fresh);
    }
    const fresh: Fresh[] = [];
    const pending = keys.map((key, i) => {
      this.requests++;
      const known = this.answers.get(key);
      if (known) {
        this.cacheHits++;
        return known;
      }
      this.queries++;
      const f = { key, input: inputs[i]! } as Fresh;
      const answer = new Promise<ModelOutput>((resolve, reject) => Object.assign(f, { resolve, reject }));
      // Every request for it awaits it below; this copy only keeps a failure from counting as unhandled.
      answer.catch(() => undefined);
      this.answers.set(key, answer);
      fresh.push(f);
      return answer;
    });
    if (fresh.length) {
      let outputs: ModelOutput[];
      try {
        outputs = await this.engine.query(fresh.map((f) => f.input));
      } catch (err) {
        // A failed query is no answer: forgotten, so that nothing waits on it (the example fails with this error).
        for (const f of fresh) {
          this.answers.delete(f.key);
          f.reject(err);
        }
        throw err;
      }
      fresh.forEach((f, k) => {
        const out = outputs[k]!;
        if (out.unmappable !== undefined) this.unmappable++;
        if (out.usage) {
          this.metered = true;
          this.tokens.input += out.usage.input;
          this.tokens.output += out.usage.output;
        }
        f.resolve(out);
      });
    }
    return Promise.all(pending);
  }
}

/** A query a session sends for the first time, and how to settle everyone waiting on it. */
interface Fresh {
  key: string;
  input: ModelInput;
  resolve: (out: ModelOutput) => void;
  reject: (err: unknown) => void;
}

/** A query that would take an attack past its per-example query budget: nothing of it was asked. */
export class QueryBudgetError extends Error {
  constructor(
    readonly budget: number,
    readonly used: number,
    readonly wanted: number,
  ) {
    super(`the query budget of ${budget} per example is spent (${used} asked, ${wanted} more wanted)`);
    this.name = 'QueryBudgetError';
  }
}
