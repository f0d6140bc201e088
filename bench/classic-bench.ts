/**
 * The classic recipes (issue 36) on SST-2 dev sentences against a demo classifier: per recipe, the attack success
 * rate with its 95% interval (ours and TextAttack's definition), queries per example (TextAttack's: every text sent
 * for an attacked example; ours: distinct queries over all examples), % of words perturbed in successful attacks,
 * words per input, and wall time. Each recipe runs in this process on the same model, with its own query engine
 * (no answers shared between recipes), one after the other.
 *
 * Beside PWWS it prints TextAttack's published search benchmark in the same WordNet space (Yoo et al. 2020,
 * "Searching for a Search Method", BERT on MR: PWWS's word-importance search 58.2% ASR at 71.2 queries per example,
 * 15.3% words perturbed) — a different model and data set, shown for the cost per success, not as a claim of
 * equality.
 *
 * A recipe may carry settings: `pwws:deltaP=score` is PWWS with TextAttack's ΔP (one change, labelled as such).
 *
 * TextBugger, BAE and TextFooler get their resources from --mlm (BAE's masked LM; TextFooler's and TextBugger's
 * second source of words without --embeddings), --sentence-encoder and --embeddings unless their spec sets them
 * (`textfooler:embeddings=` runs it without word vectors). No resource TextAttack uses exists here: the defaults are
 * demo-mlm as masked LM and as sentence encoder (its last hidden state mean-pooled: a masked LM, not a sentence
 * encoder), and no word vectors; `/usr/bin/python3 scripts/fixtures/make_tiny_embeddings.py --all --dims 128
 * --decimals 5 --out FILE` writes demo-mlm's input embeddings for --embeddings (not counter-fitted GloVe). What each
 * run used is printed under the table, with what the resources were asked per attacked example.
 *
 * Usage: npx tsx bench/classic-bench.ts [--n 200] [--recipes pwws,pwws:deltaP=score,deepwordbug,checklist]
 *          [--model models/demo-sst2] [--data ../shared/data/sst2/dev.tsv] [--seed 0] [--json FILE]
 *          [--mlm models/demo-mlm] [--sentence-encoder models/demo-mlm] [--embeddings FILE]
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { builtinRegistry } from '../src/families/index.ts';
import { CLASSIC_RECIPES } from '../src/families/classic/index.ts';
import { runRecipe } from '../src/kinds/run.ts';
import type { RunSummary } from '../src/metrics/summary.ts';
import { textAttackOf } from '../src/metrics/textattack.ts';
import { describeResource, resourcesOf, type RunResources } from '../src/metrics/resources.ts';
import { QueryEngine } from '../src/query/engine.ts';
import { openModel } from '../src/runner/open.ts';
import type { Interval } from '../src/stats/index.ts';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '200' },
    recipes: { type: 'string', default: [...CLASSIC_RECIPES.map((r) => r.name), 'pwws:deltaP=score'].join(',') },
    model: { type: 'string', default: 'models/demo-sst2' },
    data: { type: 'string', default: '../shared/data/sst2/dev.tsv' },
    seed: { type: 'string', default: '0' },
    json: { type: 'string' },
    mlm: { type: 'string', default: 'models/demo-mlm' },
    'sentence-encoder': { type: 'string', default: 'models/demo-mlm' },
    embeddings: { type: 'string' },
  },
});

/** The resources a recipe gets unless its spec sets them ('' in a spec: none). */
function resourceSettings(recipe: string): Record<string, unknown> {
  const encoder = { sentenceEncoder: values['sentence-encoder'] || null };
  const embeddings = { embeddings: values.embeddings || null };
  switch (recipe) {
    case 'bae':
      return { mlm: values.mlm, ...encoder };
    case 'textbugger':
    case 'textfooler':
      return { ...embeddings, mlm: values.mlm || null, ...encoder };
    default:
      return {};
  }
}

/** TextAttack's published PWWS figures (Yoo et al. 2020: BERT on MR, WordNet swap space, PWWS's word-importance search). */
const PUBLISHED_PWWS = { model: 'BERT (fine-tuned)', data: 'MR (movie reviews)', asr: 58.2, queries: 71.2, pctWords: 15.3 };

interface Row {
  recipe: string;
  n: number;
  asr: Interval;
  ta_asr: Interval;
  ta_queries: Interval;
  our_queries: Interval;
  ta_pct_words: Interval;
  words_per_input: number | null;
  wall_s: number;
  resources?: RunResources;
}

const iv = (x: Interval, scale = 1, digits = 1): string =>
  x.value === null
    ? 'n/a'
    : `${(x.value * scale).toFixed(digits)} [${(x.low! * scale).toFixed(digits)}–${(x.high! * scale).toFixed(digits)}]`;

async function main(): Promise<void> {
  const registry = builtinRegistry();
  const model = await openModel({ model: values.model! });
  const rows: Row[] = [];
  try {
    for (const spec of values.recipes!.split(',').filter(Boolean)) {
      // "name:key=value:key=value": a recipe with settings other than its defaults (numbers and booleans parsed).
      const [recipe, ...pairs] = spec.split(':') as [string, ...string[]];
      const settings = {
        ...resourceSettings(recipe),
        ...Object.fromEntries(
          pairs.map((p) => {
            const [k, v = ''] = p.split('=');
            // An empty value: the resource left out (null), e.g. `textfooler:embeddings=`.
            return [k!, v === '' ? null : v === 'true' ? true : v === 'false' ? false : !Number.isNaN(Number(v)) ? Number(v) : v];
          }),
        ),
      };
      const out = join(tmpdir(), `classic-bench-${recipe}-${process.pid}`);
      const t = performance.now();
      const outcome = (await runRecipe({
        registry,
        recipe,
        settings,
        model: values.model!,
        data: values.data!,
        limit: Number(values.n),
        out,
        seed: Number(values.seed),
        overwrite: true,
        shared: { model, engine: new QueryEngine(model) },
      })) as { summary: RunSummary };
      const wall = (performance.now() - t) / 1000;
      const s = outcome.summary;
      const ta = textAttackOf(s.details);
      if (!ta) throw new Error(`${recipe} wrote no TextAttack summary`);
      rows.push({
        recipe: spec,
        n: s.n,
        asr: s.intervals!.attack_success_rate!,
        ta_asr: ta.intervals.attack_success_rate,
        ta_queries: ta.intervals.avg_num_queries,
        our_queries: s.intervals!.mean_queries!,
        ta_pct_words: ta.intervals.avg_perturbed_word_pct,
        words_per_input: ta.avg_words_per_input,
        wall_s: wall,
        ...(resourcesOf(s.details) ? { resources: resourcesOf(s.details) } : {}),
      });
      process.stderr.write(`${spec}: ${wall.toFixed(1)} s\n`);
    }
  } finally {
    await model.close?.();
  }
  const lines = [
    `Classic recipes on the first ${values.n} sentences of ${values.data} against ${values.model} (seed ${values.seed}); 95% intervals.`,
    '',
    '| recipe | n | ASR % (TextAttack def.) | ASR % (ours) | queries / attacked ex. (TextAttack: all texts sent) | ' +
      'queries / ex. (ours: distinct) | % words perturbed (successes) | words / input | wall s |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.recipe} | ${r.n} | ${iv(r.ta_asr, 100)} (n=${r.ta_asr.n}) | ${iv(r.asr, 100)} (n=${r.asr.n}) | ` +
        `${iv(r.ta_queries)} | ${iv(r.our_queries)} | ` +
        `${iv(r.ta_pct_words)} | ${r.words_per_input?.toFixed(1) ?? 'n/a'} | ${r.wall_s.toFixed(1)} |`,
    ),
  ];
  const withResources = rows.filter((r) => r.resources);
  if (withResources.length) {
    lines.push('', 'What the runs used besides the model, and what they asked of it per attacked example (95% intervals):', '');
    for (const r of withResources) {
      const res = r.resources!;
      const used = res.entries.map(([k, e]) => `${k.replace(/_/g, ' ')}: ${describeResource(e)}`).join('; ');
      const asked = res.queries.map(([k, q]) => `${k.replace(/_/g, ' ')} ${iv(q.per_attacked_example)}`).join(', ');
      lines.push(`- ${r.recipe}: ${used}${asked ? `. Asked: ${asked}` : ''}`);
    }
  }
  const pwws = rows.find((r) => r.recipe === 'pwws');
  if (pwws) {
    lines.push(
      '',
      "PWWS beside TextAttack's published search benchmark " +
        `(Yoo et al. 2020; a DIFFERENT model and data set: ${PUBLISHED_PWWS.model} on ${PUBLISHED_PWWS.data}):`,
      '',
      '| | ASR % | queries / attacked example | % words perturbed |',
      '|---|---|---|---|',
      `| textstress pwws, ${values.model} on SST-2 dev (n=${pwws.n}) | ${iv(pwws.ta_asr, 100)} | ${iv(pwws.ta_queries)} | ${iv(pwws.ta_pct_words)} |`,
      `| TextAttack PWWS, ${PUBLISHED_PWWS.model} on ${PUBLISHED_PWWS.data} (published) | ` +
        `${PUBLISHED_PWWS.asr} | ${PUBLISHED_PWWS.queries} | ${PUBLISHED_PWWS.pctWords} |`,
    );
  }
  process.stdout.write(lines.join('\n') + '\n');
  if (values.json) writeFileSync(values.json, JSON.stringify({ options: values, rows, published_pwws: PUBLISHED_PWWS }, null, 2) + '\n');
}

await main();
