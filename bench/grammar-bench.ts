/**
 * Grammar-error benchmark (issue: grammatical-error attacks).
 *  (a) candidate generation: fresh SST-2 train sentences (never seen by the process, so every analysis is
 *      computed: tagging + alignment + verb forms) → all eight error types' candidates at every word;
 *      sentences/s (goal ≥ 20,000), also tagging alone and with the analysis already cached;
 *  (b) greedy, beam and genetic attacks on demo-sst2 over SST-2 dev sentences: queries and wall time per example.
 * Usage: npx tsx bench/grammar-bench.ts [--sentences 20000] [--n 100] [--model models/demo-sst2]
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { UntargetedClassification } from '../src/core/goals/index.ts';
import { LabelAligner } from '../src/core/labels.ts';
import { collect, openDataset } from '../src/data/index.ts';
import type { Example } from '../src/data/types.ts';
import { loadTransformersModel } from '../src/models/index.ts';
import { allGrammarCandidates, defaultLexicon } from '../src/perturb/grammar/index.ts';
import { QueryEngine } from '../src/query/engine.ts';
import { grammarAttack, type GrammarSearchName } from '../src/families/grammar/attack.ts';
import { runAttack } from '../src/kinds/attack/run.ts';
import { WordSeq } from '../src/text/word-seq.ts';

const { values } = parseArgs({
  options: {
    sentences: { type: 'string', default: '20000' },
    n: { type: 'string', default: '100' },
    model: { type: 'string', default: 'models/demo-sst2' },
    train: { type: 'string', default: '../shared/data/sst2/train.tsv' },
    data: { type: 'string', default: '../shared/data/sst2/dev.tsv' },
    searches: { type: 'string', default: 'greedy,beam,genetic' },
  },
});

function candidateGeneration(): Record<string, number> {
  const wanted = Number(values.sentences);
  // Whole sentences (≥ 5 words) rather than SST-2's short phrases, each once.
  const rows = readFileSync(values.train!, 'utf8')
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t')[0]!);
  const uniq = [...new Set(rows.filter((s) => s.split(' ').length >= 5))];
  const warm = uniq.slice(0, 5000);
  const fresh = uniq.slice(5000, 5000 + wanted);
  const lex = defaultLexicon();
  // Warm-up on other sentences: loads WordNet and fills the per-word caches (conjugations, synonyms), as in
  // any run after its first few examples; the measured sentences' analyses are still computed from scratch.
  for (const s of warm) allGrammarCandidates(WordSeq.parse(s));
  const seqs = fresh.map((s) => WordSeq.parse(s));
  const words = seqs.reduce((s, q) => s + q.length, 0);

  let t = performance.now();
  let cands = 0;
  for (const seq of seqs) cands += allGrammarCandidates(seq).length;
  const cold = (performance.now() - t) / 1000;

  t = performance.now();
  for (const seq of seqs) allGrammarCandidates(seq);
  const cached = (performance.now() - t) / 1000;

  const tagSeqs = uniq.slice(5000 + wanted, 5000 + 2 * wanted).map((s) => WordSeq.parse(s));
  t = performance.now();
  for (const seq of tagSeqs) lex.analyzer.analyse(seq);
  const tagging = (performance.now() - t) / 1000;

  return {
    sentences: seqs.length,
    mean_words: words / seqs.length,
    candidates_per_sentence: cands / seqs.length,
    sentences_per_s: seqs.length / cold,
    words_per_s: words / cold,
    tagging_only_sentences_per_s: tagSeqs.length / tagging,
    cached_analysis_sentences_per_s: seqs.length / cached,
  };
}

async function attacks(): Promise<Record<string, Record<string, number | null>>> {
  const model = await loadTransformersModel(values.model!);
  const examples = (await collect(await openDataset(values.data!, { limit: Number(values.n) }))) as Example[];
  const out: Record<string, Record<string, number | null>> = {};
  try {
    for (const search of values.searches!.split(',') as GrammarSearchName[]) {
      const engine = new QueryEngine(model);
      const goal = new UntargetedClassification(new LabelAligner(model.info.labels ?? [], ['negative', 'positive']));
      async function* stream(): AsyncGenerator<Example> {
        yield* examples;
      }
      const t0 = performance.now();
      const { summary } = await runAttack({
        outDir: join(tmpdir(), `textstress-grammar-bench-${process.pid}-${search}`),
        settings: { recipe: 'grammar', model: values.model!, dataset: values.data!, seed: 0, options: { search } },
        examples: stream(),
        attack: grammarAttack({ goal, search }),
        engine,
        overwrite: true,
      });
      const seconds = (performance.now() - t0) / 1000;
      out[search] = {
        examples: summary.n,
        attack_success_rate: summary.attack_success_rate,
        mean_queries_per_example: summary.mean_queries,
        wall_seconds: seconds,
        wall_ms_per_example: (1000 * seconds) / summary.n,
        model_inferences: summary.process.model_inferences,
      };
      process.stderr.write(`${search}: ${JSON.stringify(out[search])}\n`);
    }
  } finally {
    await model.close?.();
  }
  return out;
}

const gen = candidateGeneration();
process.stderr.write(`candidate generation: ${JSON.stringify(gen)}\n`);
const atk = await attacks();
process.stdout.write(JSON.stringify({ candidate_generation: gen, attacks: atk }, null, 2) + '\n');
