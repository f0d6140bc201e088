/**
 * `textstress stress qa`: the QA stress tests of Aspillaga et al. (2020) on SQuAD v1.1 — Jia & Liang's AddSent,
 * AddOneSent, AddAny and AddCommon, and five noise types on every context word — with the paper's Table 4.
 */
import type { Example } from '../../../data/types.ts';
import { TextstressError } from '../../../util/errors.ts';
import { defineRecipe, type RecipeMetric } from '../../../recipes/registry/define.ts';
import { ADVERSARIAL_FILES, findAdversarialFile, readAdversarialSet, type AdversarialSet } from './adversarial.ts';
import { stressQaFamily } from './report.ts';
import { QA_STRESS_TESTS, stressQaSettings } from './settings.ts';
import { qaStressSuite } from './suite.ts';
import { qaDetails, qaText, type QaDetails, type Table4Row } from './tables.ts';

/** Gate metrics: the original EM/F1, and per test its EM/F1 and their reductions (fractions; n/a over zero questions). */
function qaGateMetrics(): Record<string, RecipeMetric> {
  const d = (s: Record<string, unknown>): QaDetails | undefined => s.details as QaDetails | undefined;
  const out: Record<string, RecipeMetric> = {
    qa_original_em: {
      description: 'stress-qa: exact match on the unmodified questions',
      read: (s) => (d(s) ? d(s)!.original.em : undefined),
    },
    qa_original_f1: { description: 'stress-qa: F1 on the unmodified questions', read: (s) => (d(s) ? d(s)!.original.f1 : undefined) },
  };
  for (const test of QA_STRESS_TESTS) {
    const row = (s: Record<string, unknown>): Table4Row | undefined => d(s)?.table4.find((r) => r.test === test);
    const name = test.replace(/-/g, '_');
    for (const [key, field, what] of [
      ['em', 'em', 'exact match'],
      ['f1', 'f1', 'F1'],
      ['em_reduction', 'em_reduction', 'share of the original EM (same questions) lost'],
      ['f1_reduction', 'f1_reduction', 'share of the original F1 (same questions) lost'],
    ] as const) {
      out[`qa_${name}_${key}`] = {
        description: `stress-qa: ${what} on the ${test} cases`,
        read: (s) => (row(s) ? row(s)![field] : undefined),
      };
    }
  }
  return out;
}

/** The `stress-qa` recipe (`textstress stress qa`): the QA stress suite with its settings, gate metrics and report section. */
export const stressQaRecipe = defineRecipe({
  name: 'stress-qa',
  summary:
    'QA stress tests on SQuAD v1.1: AddSent, AddOneSent, AddAny, AddCommon and five noise types on the context; EM/F1 per test and their reduction (Table 4)',
  paper: 'Jia & Liang 2017; Aspillaga et al. 2020',
  kind: 'stress',
  verb: 'qa',
  tasks: ['question-answering'],
  settings: stressQaSettings,
  paths: ['addsent', 'addonesent'],
  metrics: qaGateMetrics(),
  report: stressQaFamily,
  helpAfter: [
    'Examples:',
    '  textstress stress qa --model models/demo-squad --data ../shared/data/squad-v1.1/dev-v1.1.json --out OUT',
    '  textstress stress qa --model M --data dev-v1.1.json --questions adversarial --adaptive-limit 20 --out OUT',
    '  textstress stress qa --model M --data dev.json --addsent adv/sample1k-HCVerifyAll.json --tests addsent,noise-natural',
    '',
    "AddSent/AddOneSent: the adversarial copies of each question in Jia & Liang's files (found beside --data or in a",
    'sibling adversarial-squad folder when not given); the worst copy counts. AddAny/AddCommon search a distractor',
    'against the model (up to ~1,200 queries a question), on questions it had right, within --adaptive-limit.',
    'Prints Table 4 (EM/F1 per test, % reduction from the original on the same questions); writes summary.json and',
    'results.jsonl. More: docs/stress-tests.md.',
  ],
  async build(s, ctx) {
    if (!ctx.data) throw new TextstressError('the QA stress tests need a SQuAD-style dataset.', { hint: 'Pass --data.' });
    const dataPath = ctx.data.path;
    const want = (t: 'addsent' | 'addonesent'): boolean => s.tests.includes(t) || s.questions === 'adversarial';
    const load = async (t: 'addsent' | 'addonesent'): Promise<AdversarialSet | null> => {
      const path = want(t) ? findAdversarialFile(t, s[t], dataPath) : null;
      return path === null ? null : readAdversarialSet(path);
    };
    const adversarial = { addsent: await load('addsent'), addonesent: await load('addonesent') };
    let keep: ((id: string) => boolean) | undefined;
    if (s.questions === 'adversarial') {
      if (!adversarial.addsent && !adversarial.addonesent) {
        throw new TextstressError(
          `--questions adversarial: neither ${ADVERSARIAL_FILES.addsent} nor ${ADVERSARIAL_FILES.addonesent} was found ` +
            `beside ${dataPath} or in a sibling adversarial-squad folder.`,
          {
            hint: 'Pass --addsent / --addonesent.',
          },
        );
      }
      const ids = new Set([...(adversarial.addsent?.originals ?? []), ...(adversarial.addonesent?.originals ?? [])]);
      keep = (id) => ids.has(id);
    }
    // The adaptive cap by position in the run: deterministic whatever the concurrency, and the same on resume
    // (select sees every example, finished ones included).
    const capped = new Set<string>();
    let position = 0;
    const suite = qaStressSuite({
      tests: s.tests,
      seed: ctx.seed,
      adversarial,
      adaptive: (id) => capped.has(id),
      adaptiveLimit: s.adaptiveLimit,
    });
    const files = { addsent: adversarial.addsent?.path ?? null, addonesent: adversarial.addonesent?.path ?? null };
    return {
      kind: 'stress',
      suite,
      select(e: Example) {
        if (keep && !keep(e.id)) return false;
        if (position++ < s.adaptiveLimit) capped.add(e.id);
        return true;
      },
      details: (m) => ({ ...qaDetails(m, { files, questions: s.questions, adaptive_limit: s.adaptiveLimit }) }),
      text: qaText,
    };
  },
});
