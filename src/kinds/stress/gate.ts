/** What the gate and the suite's lines read of a stress run: only the metrics its recipe declares (per test). */
import { NA, pct } from '../../util/format.ts';
import { recipeInterval, recipeMetric, stressRunOf } from '../gate.ts';
import type { GateRuntime } from '../types.ts';

const stress = stressRunOf;

export const STRESS_GATE: GateRuntime = {
  // Only the metrics its recipe declares: a stress run has no clean or attacked examples.
  builtIn: [],
  value(metric, run, extra) {
    const s = stress(run).summary;
    const v = recipeMetric(metric, s, extra);
    return v === undefined && s.n === 0 ? null : v;
  },
  interval: (metric, run, extra) => recipeInterval(metric, stress(run).summary, extra),
  naReason(_metric, run) {
    const st = stress(run).summary;
    return st.n === 0
      ? 'no examples tested (0 examples)'
      : `it is taken over zero cases (the test applied to none of the ${st.n} examples, or the original accuracy it is measured against is 0)`;
  },
  measured: (run) => ({ n: stress(run).summary.n, unit: 'examples tested' }),
  line(run) {
    const s = stress(run).summary;
    const worst = s.worst ? `, lowest ${s.worst.test} ${pct(s.worst.accuracy)}` : '';
    const most = s.max_reduction ? `, largest reduction ${s.max_reduction.test} ${pct(s.max_reduction.reduction)}` : '';
    return `original ${pct(s.original.accuracy)}${worst}${most}`;
  },
  // The original accuracy as "clean", the lowest test accuracy as "attacked".
  row(run) {
    const s = stress(run).summary;
    return [s.recipe, String(s.n), pct(s.original.accuracy), s.worst ? `${pct(s.worst.accuracy)} (${s.worst.test})` : NA, '', ''];
  },
};
