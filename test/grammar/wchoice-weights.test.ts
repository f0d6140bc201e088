import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { grammarSettings } from '../../src/families/grammar/settings.ts';
import { allGrammarCandidates, sampleGrammarError, type WchoiceWeights } from '../../src/perturb/grammar/index.ts';
import { WordSeq } from '../../src/text/word-seq.ts';
import { Rng } from '../../src/util/rng.ts';
import { DEMO_SST2, SST2_DEV, readJson, readJsonl, runCli, tmp } from '../cli/helpers.ts';

/** How often each synonym is drawn in 1,000 seeded draws of one Wchoice error. */
function draws(mode: WchoiceWeights): Record<string, number> {
  const cands = allGrammarCandidates(WordSeq.parse('The film was tedious.'), { types: ['Wchoice'] });
  const rng = new Rng(7);
  const counts: Record<string, number> = {};
  for (let i = 0; i < 1000; i++) {
    const after = cands[sampleGrammarError(cands, rng, { Wchoice: 1 }, { wchoiceWeights: mode })]!.after;
    counts[after] = (counts[after] ?? 0) + 1;
  }
  return counts;
}

describe('Wchoice confusion weights: ranked (default) or uniform (the paper)', () => {
  it("ranked draws the first sense's synonyms more often; uniform draws every synonym alike", () => {
    const cands = allGrammarCandidates(WordSeq.parse('The film was tedious.'), { types: ['Wchoice'] });
    expect(cands.map((c) => [c.after, Number(c.weight.toFixed(3))])).toEqual([
      ['movie', 1],
      ['picture', 0.5],
      ['pic', 0.333],
      ['flick', 0.25],
      ['cinema', 0.2],
      ['boring', 1],
      ['dull', 0.5],
      ['slow', 0.333],
      ['tiresome', 0.25],
    ]);
    // positions first (film, tedious: ~500 each), then the synonym at that position by its weight
    expect(draws('ranked')).toEqual({
      movie: 216,
      picture: 115,
      pic: 83,
      flick: 45,
      cinema: 42,
      boring: 253,
      dull: 106,
      slow: 84,
      tiresome: 56,
    });
    expect(draws('uniform')).toEqual({
      movie: 95,
      picture: 103,
      pic: 100,
      flick: 113,
      cinema: 90,
      boring: 141,
      dull: 120,
      slow: 114,
      tiresome: 124,
    });
  });

  it('is a setting of the grammar recipe (flag --wchoice-weights, suite key wchoiceWeights), ranked by default', async () => {
    expect(grammarSettings.parse({}).wchoiceWeights).toBe('ranked');
    expect(() => grammarSettings.parse({ wchoiceWeights: 'counted' })).toThrow();
    const edits = async (mode: WchoiceWeights): Promise<string[]> => {
      const out = tmp(`wchoice-${mode}`);
      const r = await runCli([
        'attack',
        'grammar',
        '--search',
        'probabilistic',
        '--error-types',
        'Wchoice',
        '--wchoice-weights',
        mode,
        '--model',
        DEMO_SST2,
        '--data',
        SST2_DEV,
        '--limit',
        '6',
        '--out',
        join(out, 'run'),
        '--no-progress',
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(readJson(join(out, 'run', 'summary.json')).settings).toMatchObject({ search: 'probabilistic', wchoiceWeights: mode });
      return readJsonl(join(out, 'run', 'results.jsonl')).flatMap((res) => res.edits.map((e) => `${e.before}→${e.after}`));
    };
    const ranked = await edits('ranked');
    const uniform = await edits('uniform');
    expect(ranked).toEqual([
      'affecting→touching',
      'bleak→dim',
      'yet→even',
      'poised→braced',
      'cinematography→filming',
      'austere→severe',
      'very→really',
      'look→expression',
      'laced→twined',
    ]);
    // the same positions (the same seeded draws of type and position), one synonym drawn differently
    expect(uniform).toEqual(ranked.map((e) => (e === 'bleak→dim' ? 'bleak→barren' : e)));
  }, 60_000);
});
