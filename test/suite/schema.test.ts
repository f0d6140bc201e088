import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GATE_METRICS } from '../../src/kinds/attack/gate.ts';
import { parseThreshold } from '../../src/suite/gate.ts';
import { errorMessage } from '../../src/util/errors.ts';
import { parseSuite, SuiteError } from '../../src/suite/load.ts';
import { STARTER_SUITE } from '../../src/suite/starter.ts';
import { builtinRegistry } from '../../src/families/index.ts';

const registry = builtinRegistry();
import { SCHEMA_PATH, schemaText } from '../../scripts/gen-suite-schema.ts';

const base = `models:
  m: demo-sst2
datasets:
  d: data.tsv
tests:
  - name: t1
    recipe: typos
`;

function problems(yaml: string): SuiteError['problems'] {
  try {
    parseSuite(yaml, '/suites/s.yaml', registry);
  } catch (err) {
    if (err instanceof SuiteError) return err.problems;
    throw err;
  }
  throw new Error('expected the suite to be rejected');
}

describe('suite schema', () => {
  it('accepts the starter suite and the example suite', () => {
    expect(parseSuite(STARTER_SUITE, '/x/textstress.yaml', registry).suite.tests.length).toBeGreaterThan(0);
    expect(
      parseSuite(readFileSync('examples/suite.yaml', 'utf8'), '/x/examples/suite.yaml', registry).suite.tests.map((t) => t.name),
    ).toContain('typos-max-k2');
  });

  it('names the line and the key of a misspelled key, with a suggestion', () => {
    const p = problems(base + '    settings:\n      k: 2\n      taget: max\n');
    expect(p).toEqual([{ line: 10, key: 'tests[0].settings.taget', message: 'unknown key "taget" (did you mean "target"?)' }]);
    const top = problems(base + 'tresholds: []\n');
    expect(top[0]).toMatchObject({ line: 8, key: 'tresholds' });
    expect(top[0]!.message).toMatch(/unknown key "tresholds"/);
  });

  it('reports the whole error in one message naming file, line and key', () => {
    let message = '';
    try {
      parseSuite(base + '    setings: {}\n', '/suites/s.yaml', registry);
    } catch (err) {
      message = errorMessage(err);
    }
    expect(message).toMatch(/^\/suites\/s\.yaml: invalid suite: line 8: tests\[0\]\.setings: unknown key "setings"/);
    expect(() => parseSuite(base + '    setings: {}\n', '/suites/s.yaml', registry)).toThrow(
      /invalid suite: line 8: tests\[0\]\.setings: unknown key "setings" \(did you mean "settings"\?\)/,
    );
  });

  it('rejects wrong values, unknown recipes, unknown metrics and YAML syntax errors with their lines', () => {
    expect(problems(base + '    settings: { k: many }\n')[0]).toMatchObject({ line: 8, key: 'tests[0].settings.k' });
    expect(problems(base.replace('recipe: typos', 'recipe: typoz'))[0]).toMatchObject({
      line: 7,
      key: 'tests[0].recipe',
      message: expect.stringMatching(/"typos"/),
    });
    const m = problems(base + 'gate: ["stabilty > 0.9"]\n')[0]!;
    expect(m).toMatchObject({ line: 8, key: 'gate[0]' });
    expect(m.message).toMatch(/unknown metric "stabilty"/);
    expect(problems(base + 'gate: [oops\n')[0]!.line).toBeGreaterThanOrEqual(8);
    expect(problems('models: {}\ndatasets: {}\n')[0]).toMatchObject({ key: 'tests', message: 'is required' });
  });

  it('parses thresholds: numbers, percentages, baseline margins', () => {
    expect(parseThreshold('attack_success_rate < 0.4')).toMatchObject({ metric: 'attack_success_rate', op: '<', value: 0.4 });
    expect(parseThreshold('stability >= 90%')).toMatchObject({ metric: 'stability', op: '>=', value: 0.9 });
    expect(parseThreshold('attacked_accuracy >= baseline - 2pts')).toMatchObject({ op: '>=', baseline: { margin: -0.02 } });
    expect(parseThreshold('attacked_accuracy >= baseline - 0.02')).toMatchObject({ baseline: { margin: -0.02 } });
    // Every documented gate metric parses, digits in names included (clean_f1, attacked_f1).
    for (const metric of Object.keys(GATE_METRICS)) {
      expect(parseThreshold(`${metric} > 0.5`)).toMatchObject({ metric, op: '>', value: 0.5 });
    }
    expect(parseThreshold('clean_metric>baseline')).toMatchObject({ baseline: { margin: 0 } });
    // Negative bounds, for metrics that can be negative (a stress test's reduction when the test raised accuracy).
    expect(parseThreshold('metric_drop > -5%')).toMatchObject({ op: '>', value: -0.05 });
    expect(parseThreshold('nli_word_overlap_reduction >= -0.1', builtinRegistry().metrics())).toMatchObject({
      metric: 'nli_word_overlap_reduction',
      value: -0.1,
    });
  });

  it('publishes an up-to-date JSON Schema (regenerate: npx tsx scripts/gen-suite-schema.ts)', () => {
    expect(readFileSync(SCHEMA_PATH, 'utf8')).toBe(schemaText());
  });
});

describe('impossible thresholds (issue 35)', () => {
  it('a value the metric can never take is refused when the suite is read, naming the line', () => {
    const yaml =
      base +
      '    thresholds:\n' +
      '      - "stability >= 150%"\n' + // line 9: a share above 100%
      '      - "attack_success_rate.high < -0.1"\n' + // a bound below 0
      '      - "mean_queries > -1"\n' + // a mean count below 0
      '      - "attack_success_rate < 0"\n' + // the edge of the range: strict, but possible
      '      - "metric_drop > -50%"\n' + // a drop may be negative
      '  - name: nli\n' +
      '    recipe: stress-nli\n' +
      '    thresholds: ["nli_negation_reduction < 150%", "nli_word_overlap_reduction > -500%"]\n' + // line 16
      'gate: ["clean_accuracy > 2"]\n'; // line 17
    const p = problems(yaml).filter((x) => /impossible/.test(x.message));
    expect(p.map((x) => [x.line, x.key])).toEqual([
      [9, 'tests[0].thresholds[0]'],
      [10, 'tests[0].thresholds[1]'],
      [11, 'tests[0].thresholds[2]'],
      [16, 'tests[1].thresholds[0]'],
      [17, 'gate[0]'],
    ]);
    expect(p[0]!.message).toBe(
      '"stability >= 150%": stability lies between 0 and 1 (0%–100%), so 150% is impossible and the check would never hold ' +
        '(a share is a fraction, or a percentage with %)',
    );
    expect(p[2]!.message).toMatch(/mean_queries is at least 0, so -1 is impossible and the check would always hold$/);
    expect(p[3]!.message).toMatch(/nli_negation_reduction is at most 1 \(100%\), so 150% is impossible and the check would always hold/);
  });
});
