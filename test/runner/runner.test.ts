import { mkdtempSync, readFileSync, appendFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Attack } from '../../src/attack/attack.ts';
import { editZone, maxEdits, noRepeatEdits } from '../../src/attack/constraints.ts';
import { UntargetedClassification } from '../../src/attack/goal.ts';
import { LabelAligner } from '../../src/attack/labels.ts';
import { GreedyWordSearch } from '../../src/attack/search/greedy-word.ts';
import type { TextExample } from '../../src/data/types.ts';
import type { ModelAdapter } from '../../src/models/types.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { runAttack, type RunSettings } from '../../src/runner/runner.ts';
import { TextstressError } from '../../src/util/errors.ts';
import { lexiconModel, twoTypos } from '../attack/helpers.ts';

const attack: Attack = {
  name: 'test',
  transformation: twoTypos,
  constraints: [editZone(), noRepeatEdits, maxEdits(3)],
  goal: new UntargetedClassification(new LabelAligner(['negative', 'positive'])),
  search: new GreedyWordSearch('random'),
};
const texts = ['a good film', 'good good nice plot', 'bad acting', 'nice and good', 'the good the bad', 'so good'];
const examples: TextExample[] = Array.from({ length: 30 }, (_, i) => ({
  kind: 'text',
  id: `ex${i}`,
  text: `${texts[i % texts.length]} ${'x '.repeat(i % 4)}`.trim(),
  label: i % 5 === 0 ? 'negative' : 'positive',
}));
async function* stream(): AsyncIterable<TextExample> {
  yield* examples;
}
const settings: RunSettings = { recipe: 'test', model: 'lexicon', dataset: 'mem', seed: 3, options: { k: 3 } };

/** Fails every predict() after `okCalls` successful ones, like an endpoint that dies mid-run. */
function dyingModel(okCalls: number): ModelAdapter {
  let calls = 0;
  return {
    info: lexiconModel.info,
    async predict(inputs) {
      if (++calls > okCalls) throw new Error('connection reset');
      return lexiconModel.predict(inputs);
    },
  };
}

const stable = (s: Record<string, unknown>): Record<string, unknown> => {
  const { wall_seconds: _w, process: _p, ...rest } = s;
  return rest;
};

describe('runAttack', () => {
  it('writes every example once, in dataset order, and a complete summary', async () => {
    const out = mkdtempSync(join(tmpdir(), 'ts-run-'));
    const { summary, results } = await runAttack({
      outDir: out,
      settings,
      examples: stream(),
      attack,
      engine: new QueryEngine(lexiconModel),
      concurrency: 7,
    });
    expect(results.map((r) => r.id)).toEqual(examples.map((e) => e.id));
    expect(summary.complete).toBe(true);
    expect(summary.n).toBe(30);
    expect(summary.skipped).toBe(results.filter((r) => !r.original_correct).length);
    expect(summary.skipped).toBeGreaterThan(0);
    expect(summary.succeeded).toBeGreaterThan(0);
    expect(summary.succeeded + summary.failed + summary.skipped).toBe(30);
    const lines = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(30);
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).attack_success_rate).toBe(
      summary.attack_success_rate,
    );
  });

  it('refuses to overwrite a run unless asked, and resumes an interrupted one to the same summary', async () => {
    const full = mkdtempSync(join(tmpdir(), 'ts-full-'));
    const uninterrupted = await runAttack({
      outDir: full,
      settings,
      examples: stream(),
      attack,
      engine: new QueryEngine(lexiconModel),
      concurrency: 4,
    });

    const out = mkdtempSync(join(tmpdir(), 'ts-resume-'));
    const failing = runAttack({
      outDir: out,
      settings,
      examples: stream(),
      attack,
      engine: new QueryEngine(dyingModel(6)),
      concurrency: 4,
    });
    await expect(failing).rejects.toThrow(/finished results are kept .*--resume/);
    expect(existsSync(join(out, 'summary.json'))).toBe(false);
    const partial = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n').filter(Boolean);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(30);
    // A torn last line, as kill -9 during a write would leave.
    appendFileSync(join(out, 'results.jsonl'), '{"id":"ex29","sta');

    await expect(
      runAttack({ outDir: out, settings, examples: stream(), attack, engine: new QueryEngine(lexiconModel) }),
    ).rejects.toBeInstanceOf(TextstressError);
    await expect(
      runAttack({
        outDir: out,
        settings: { ...settings, seed: 4 },
        examples: stream(),
        attack,
        engine: new QueryEngine(lexiconModel),
        resume: true,
      }),
    ).rejects.toThrow(/seed differ/);

    const resumed = await runAttack({
      outDir: out,
      settings,
      examples: stream(),
      attack,
      engine: new QueryEngine(lexiconModel),
      concurrency: 5,
      resume: true,
    });
    const ids = resumed.results.map((r) => r.id);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    expect(stable({ ...resumed.summary })).toEqual(stable({ ...uninterrupted.summary }));
    expect(resumed.results.slice().sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      uninterrupted.results.slice().sort((a, b) => a.id.localeCompare(b.id)),
    );
  });
});
