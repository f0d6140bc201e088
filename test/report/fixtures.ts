import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Edit } from '../../src/text/edits.ts';
import type { ExampleResult } from '../../src/core/result.ts';
import { summarize } from '../../src/metrics/summary.ts';
import type { RunSummary } from '../../src/kinds/attack/run.ts';

export interface FakeExample {
  text: string;
  perturbed?: string;
  edits?: Edit[];
  gold?: string;
  status?: ExampleResult['status'];
}

/** One result line, shaped as the runner writes it. */
export function fakeResult(i: number, ex: FakeExample): ExampleResult {
  const status = ex.status ?? (ex.edits?.length ? 'succeeded' : 'failed');
  const gold = ex.gold ?? 'positive';
  const flipped = status === 'succeeded';
  const other = gold === 'positive' ? 'negative' : 'positive';
  const words = ex.text.split(/\s+/).filter(Boolean).length || 1;
  const edits = ex.edits ?? [];
  return {
    id: `row-${i}`,
    source: `fake.tsv:${i + 2}`,
    status,
    ...(status === 'skipped' ? { skip_reason: 'the model already misclassifies the clean example' } : {}),
    gold,
    field: 'text',
    original: { text: ex.text },
    perturbed: { text: ex.perturbed ?? ex.text },
    original_prediction: { label: status === 'skipped' ? other : gold, score: 0.97 },
    perturbed_prediction: { label: flipped || status === 'skipped' ? other : gold, score: flipped ? 0.71 : 0.9 },
    original_correct: status !== 'skipped',
    perturbed_correct: status === 'failed',
    edits,
    num_words: words,
    words_perturbed: edits.length,
    perturbed_word_pct: (100 * edits.length) / words,
    queries: 10,
    requests: 10,
    cache_hits: 0,
    trace: edits.map((_, k) => ({
      edits: k + 1,
      correct: !(flipped && k === edits.length - 1),
      done: flipped && k === edits.length - 1,
      score: 0.5,
      label: gold,
    })),
  };
}

/** Writes a finished run folder (summary.json, results.jsonl, run.json) as the runner would. */
export function writeRun(
  dir: string,
  recipe: string,
  settings: Record<string, unknown>,
  results: ExampleResult[],
  extra: { model?: string; dataset?: string } = {},
): RunSummary {
  mkdirSync(dir, { recursive: true });
  const summary: RunSummary = {
    complete: true,
    recipe,
    model: extra.model ?? 'models/demo-sst2',
    dataset: extra.dataset ?? 'fake.tsv',
    seed: 0,
    settings,
    ...summarize(results),
    wall_seconds: 1.5,
    skipped_rows: 0,
    process: { requests: 0, cache_hits: 0, cache_hit_rate: null, model_inferences: 0 },
  };
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary, null, 2));
  writeFileSync(join(dir, 'results.jsonl'), results.map((r) => JSON.stringify(r)).join('\n') + '\n');
  writeFileSync(
    join(dir, 'run.json'),
    JSON.stringify({
      settings: { recipe, model: summary.model, dataset: summary.dataset, seed: 0, options: settings },
      status: 'complete',
    }),
  );
  return summary;
}

/** A word-replacing edit at the first occurrence of `before` in `text`. */
export function replaceEdit(text: string, before: string, after: string, type: string): { perturbed: string; edit: Edit } {
  const start = text.indexOf(before);
  if (start < 0) throw new Error(`"${before}" not in "${text}"`);
  const wordIndex = text.slice(0, start).split(/\s+/).filter(Boolean).length;
  return {
    perturbed: text.slice(0, start) + after + text.slice(start + before.length),
    edit: { type, field: 'text', wordIndex, start, before, after },
  };
}

export const XSS_SCRIPT = '<script>window.__pwned=1</script>';
export const XSS_IMG = '"><img src=x onerror="window.__pwned=1">';

/**
 * A folder with typos, noise and grammar runs (grammar: four searches, error types), whose data includes
 * script-injection strings in the text, the edits, the gold label and the id.
 */
export function writeFixtureRuns(root: string): void {
  const texts = [
    `a charming and often affecting journey ${XSS_SCRIPT}`,
    `unflinchingly bleak and desperate ${XSS_IMG}`,
    'the acting , costumes , music , cinematography and sound are all astounding',
    'it is slow -- very , very slow . </script><!-- end',
    'a sometimes tedious film .',
    'the movie is just a plain old monster .',
  ];
  const typoTypes = ['typo:swap', 'typo:mistype', 'typo:insertion', 'typo:deletion'];
  const typos = texts.map((t, i) => {
    const word = t.split(' ')[i % 3 === 0 ? 1 : 2]!;
    if (i === 4) return fakeResult(i, { text: t, status: 'skipped' });
    const { perturbed, edit } = replaceEdit(t, word, `${word.slice(1)}${word[0]}`, typoTypes[i % typoTypes.length]!);
    return fakeResult(i, { text: t, perturbed, edits: [edit], ...(i === 5 ? { status: 'failed' } : {}) });
  });
  // The malicious string as an edit itself.
  const evil = replaceEdit('a sometimes tedious film .', 'tedious', XSS_IMG, 'typo:mistype');
  typos.push(fakeResult(6, { text: 'a sometimes tedious film .', perturbed: evil.perturbed, edits: [evil.edit], gold: XSS_SCRIPT }));
  writeRun(
    join(root, 'typos-max-k1'),
    'typos',
    { target: 'max', k: 1, sources: ['swap', 'mistype', 'insertion', 'deletion', 'pronounce', 'replace-word'] },
    typos,
  );

  const noisy = texts.map((t, i) => {
    const { perturbed, edit } = replaceEdit(t, t.split(' ')[0]!, `${t.split(' ')[0]!}x`, 'noise:middle-random');
    return fakeResult(i, { text: t, perturbed, edits: [edit], ...(i % 2 ? { status: 'failed' } : {}) });
  });
  writeRun(join(root, 'noise-middle-random'), 'noise', { noise: 'middle-random' }, noisy);

  const grammarTypes = ['grammar:ArtOrDet', 'grammar:Prep', 'grammar:SVA', 'grammar:Vform', 'grammar:Nn', 'grammar:Wchoice'];
  ['probabilistic', 'greedy', 'beam', 'genetic'].forEach((search, s) => {
    const results = texts.map((t, i) => {
      const words = t.split(' ');
      if (i > s + 1) return fakeResult(i, { text: t, status: 'failed' });
      const first = replaceEdit(t, words[0]!, words[0] === 'a' ? 'the' : 'a', grammarTypes[(i + s) % grammarTypes.length]!);
      const edits = [first.edit];
      let perturbed = first.perturbed;
      if (s >= 2) {
        const second = replaceEdit(perturbed, words[2]!, `${words[2]!}s`, grammarTypes[(i + s + 1) % grammarTypes.length]!);
        edits.push(second.edit);
        perturbed = second.perturbed;
      }
      return fakeResult(i, { text: t, perturbed, edits });
    });
    writeRun(join(root, `grammar-${search}`), 'grammar', { search, budget: 0.45 }, results);
  });

  // A family the report has no section for yet: the generic fallback.
  const swap = replaceEdit('Ann went home', 'Ann', 'Bob', 'entity:PER');
  writeRun(join(root, 'entity-swap'), 'entity-swap', { what: 'PER' }, [
    fakeResult(0, { text: 'Ann went home', perturbed: swap.perturbed, edits: [swap.edit] }),
  ]);
}
