/**
 * A summary.json read back is checked before any figure is read from it (src/metrics/summary-schema.ts): a figure of
 * the wrong type, hand-edited or from another version, is a clear error naming the file and the field — never a
 * crash far away ("x.toFixed is not a function") or a string compared in a gate.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinRegistry } from '../../src/families/index.ts';
import { loadGroups } from '../../src/report/html/load.ts';
import { TextstressError } from '../../src/util/errors.ts';
import { readStressSummary } from '../../src/metrics/summary-schema.ts';
import { tmp } from '../cli/helpers.ts';
import { writeRun, fakeResult } from './fixtures.ts';

const registry = builtinRegistry();

function edit(file: string, change: (s: Record<string, unknown>) => void): void {
  const s = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  change(s);
  writeFileSync(file, JSON.stringify(s));
}

describe('a summary.json that is not what textstress writes', () => {
  const results = [0, 1, 2].map((i) => fakeResult(i, { text: `good movie number ${i}`, status: i === 0 ? 'succeeded' : 'failed' }));

  it('loads as written, and a hand-edited figure is refused with the file and the field', async () => {
    const dir = join(tmp('corrupt-summary'), 'typos');
    writeRun(dir, 'typos', { k: 1 }, results);
    const [group] = await loadGroups([dir], { registry });
    expect(group!.runs[0]!.summary.n).toBe(3);

    edit(join(dir, 'summary.json'), (s) => {
      s.attack_success_rate = '0.05';
      s.n = 'many';
    });
    const err = await loadGroups([dir], { registry }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TextstressError);
    const e = err as TextstressError;
    expect(e.where).toBe(join(dir, 'summary.json'));
    expect(e.message).toMatch(/^summary\.json is not a readable attack or probe summary: summary\.n: .*expected number, received string/);
    expect(e.message).toMatch(/summary\.attack_success_rate: .*expected number, received string/);
    expect(e.describe()).toMatch(/edited by hand, cut short, or written by another textstress version/);
  });

  it('a stress summary without its tests is refused the same way', () => {
    const where = '/runs/nli/summary.json';
    const raw = { recipe: 'stress-nli', kind: 'stress', n: 4, original: { n: 4, accuracy: 0.5 } };
    expect(() => readStressSummary(raw, where)).toThrow(/summary\.tests: .*expected record, received undefined/);
    const ok = { ...raw, tests: { negation: { n: 4, accuracy: null, reduction: null } } };
    expect(readStressSummary(ok, where).tests.negation!.accuracy).toBeNull();
  });
});
