/**
 * `textstress stress qa`: the QA stress tests of Aspillaga et al. (2020) on SQuAD v1.1 — Jia & Liang's AddSent,
 * AddOneSent, AddAny and AddCommon, and five noise types on every context word — with the paper's Table 4.
 */
import type { Example } from '../../../data/types.ts';
import type { ModelAdapter } from '../../../models/types.ts';
import type { BuildContext } from '../../../recipes/registry/define.ts';
import { TextstressError } from '../../../util/errors.ts';
import { defineStress, type RecipeMetric } from '../../../recipes/registry/define.ts';
import { beside, REDUCTION_RANGE } from '../../../recipes/stress-gate-metrics.ts';
import { ADVERSARIAL_FILES, findAdversarialFile, readAdversarialSet, type AdversarialSet } from './adversarial.ts';
import { stressQaFamily } from './report.ts';
import { QA_STRESS_TESTS, stressQaSettings } from './settings.ts';
import { qaStressSuite } from './suite.ts';
import { qaDetails, qaText, WORST_OF_SETS, type QaDetails, type Table4Row } from './tables.ts';
import { isModelFolder, modelIdentity, sameModel } from './identity.ts';
import { QaIntervalDigest, type QaIntervals } from './intervals.ts';
import type { AddAnyVariant } from './add-any.ts';
import { adapterSessions, readTransferSets, splitSets, type TransferSet, type TransferSets } from './transfer.ts';

/** Gate metrics: the original EM/F1, and per test its EM/F1 and their reductions (fractions; n/a over zero questions). */
function qaGateMetrics(): Record<string, RecipeMetric> {
  const d = (s: Record<string, unknown>): QaDetails | undefined => s.details as QaDetails | undefined;
  const out: Record<string, RecipeMetric> = {
    qa_original_em: {
      description: 'stress-qa: exact match on the unmodified questions',
      range: [0, 1],
      read: (s) => (d(s) ? d(s)!.original.em : undefined),
      interval: (s) => beside(d(s)?.original.em_interval, d(s)?.original.em),
    },
    qa_original_f1: {
      description: 'stress-qa: F1 on the unmodified questions',
      range: [0, 1],
      read: (s) => (d(s) ? d(s)!.original.f1 : undefined),
      interval: (s) => beside(d(s)?.original.f1_interval, d(s)?.original.f1),
    },
  };
  for (const test of QA_STRESS_TESTS) {
    const row = (s: Record<string, unknown>): Table4Row | undefined => d(s)?.table4.find((r) => r.test === test);
    const name = test.replace(/-/g, '_');
    for (const [key, field, what, range] of [
      ['em', 'em', 'exact match', [0, 1]],
      ['f1', 'f1', 'F1', [0, 1]],
      ['em_reduction', 'em_reduction', 'share of the original EM (same questions) lost', REDUCTION_RANGE],
      ['f1_reduction', 'f1_reduction', 'share of the original F1 (same questions) lost', REDUCTION_RANGE],
    ] as const) {
      out[`qa_${name}_${key}`] = {
        description: `stress-qa: ${what} on the ${test} cases${WORST_OF_SETS.has(test) ? ' (the worst alternative set from other models)' : ''}`,
        range,
        read: (s) => (row(s) ? row(s)![field] : undefined),
        interval: (s) => beside(row(s)?.[`${field}_interval`], row(s)?.[field]),
      };
    }
  }
  return out;
}

/** The `stress-qa` recipe (`textstress stress qa`): the QA stress suite with its settings, gate metrics and report section. */
export const stressQaRecipe = defineStress({
  name: 'stress-qa',
  summary:
    'QA stress tests on SQuAD v1.1: AddSent, AddOneSent, AddAny, AddCommon and five noise types on the context; EM/F1 per test and their reduction (Table 4)',
  paper: 'Jia & Liang 2017; Aspillaga et al. 2020',
  verb: 'qa',
  tasks: ['question-answering'],
  settings: stressQaSettings,
  paths: ['addsent', 'addonesent', 'addanyFrom'],
  metrics: qaGateMetrics(),
  report: stressQaFamily,
  helpAfter: [
    'Examples:',
    '  textstress stress qa --model models/demo-squad --data ../shared/data/squad-v1.1/dev-v1.1.json --out OUT',
    '  textstress stress qa --model M --data dev-v1.1.json --questions adversarial --adaptive-limit 20 --out OUT',
    '  textstress stress qa --model M --data dev.json --addsent adv/sample1k-HCVerifyAll.json --tests addsent,noise-natural',
    '  textstress stress qa --model M --data dev.json --addany-models other-model --addany-from OUT_OF_AN_EARLIER_RUN --out OUT',
    '',
    "AddSent/AddOneSent: the adversarial copies of each question in Jia & Liang's files (found beside --data or in a",
    'sibling adversarial-squad folder when not given); the worst copy counts. AddAny/AddCommon (Table 4): the worst of',
    'the alternative adversarial sets generated against OTHER models (--addany-models: searched here on every question;',
    '--addany-from: the adversaries of earlier runs), sets made against this model left out; n/a without such sets.',
    'AddAny/AddCommon adaptive: the search against this model (up to ~1,200 queries a question), on questions it had',
    'right, within --adaptive-limit.',
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
    const sources = await transferSources(s, ctx);
    const suite = qaStressSuite({
      tests: s.tests,
      seed: ctx.seed,
      adversarial,
      adaptive: (id) => capped.has(id),
      adaptiveLimit: s.adaptiveLimit,
      transfer: sources.sets,
      target: sources.target,
    });
    const files = { addsent: adversarial.addsent?.path ?? null, addonesent: adversarial.addonesent?.path ?? null };
    const excluded = { addany: sources.sets.addany.excluded, addcommon: sources.sets.addcommon.excluded };
    return {
      suite,
      select(e: Example) {
        if (keep && !keep(e.id)) return false;
        if (position++ < s.adaptiveLimit) capped.add(e.id);
        return true;
      },
      digest: () => {
        const d = new QaIntervalDigest(ctx.seed, WORST_OF_SETS);
        return { add: (r) => d.add(r), finish: () => ({ digested: { ...d.finish() } }) };
      },
      details: (m, iv) => ({
        ...qaDetails(
          m,
          { files, questions: s.questions, adaptive_limit: s.adaptiveLimit, model_identity: sources.target, excluded },
          iv as QaIntervals | undefined,
        ),
      }),
      text: qaText,
      close: sources.close,
    };
  },
});

/**
 * The model under test's identity and the alternative adversarial sets of the AddAny / AddCommon rows: those read
 * from earlier runs and those searched here against source models, each split into used and left out (made
 * against the model under test: same identity, whatever its path). A source model that is the model under test is
 * not searched at all.
 */
async function transferSources(
  s: { tests: readonly string[]; addanyFrom: readonly string[]; addanyModels: readonly string[] },
  ctx: BuildContext,
): Promise<{ target: string; sets: Record<AddAnyVariant, TransferSets>; close: () => Promise<void> }> {
  const opened: ModelAdapter[] = [];
  const close = async (): Promise<void> => {
    for (const m of opened.splice(0)) await m.close?.();
  };
  const identityOf = async (spec: string): Promise<string> => {
    if (isModelFolder(spec)) return modelIdentity(spec);
    const m = await ctx.openModel(spec, { task: 'question-answering' });
    try {
      return modelIdentity(m.info.id, m.cacheIdentity);
    } finally {
      await m.close?.();
    }
  };
  const target = await identityOf(ctx.model.id);
  const wanted = (['addany', 'addcommon'] as const).filter((v) => s.tests.includes(v));
  const all: TransferSet[] = [];
  try {
    for (const dir of s.addanyFrom) all.push(...(await readTransferSets(dir)));
    for (const spec of wanted.length ? s.addanyModels : []) {
      const identity = isModelFolder(spec) ? modelIdentity(spec) : undefined;
      let model: ModelAdapter | undefined;
      if (identity === undefined || !sameModel(identity, target)) {
        model = await ctx.openModel(spec, { task: 'question-answering' });
        opened.push(model);
      }
      const id = identity ?? modelIdentity(model!.info.id, model!.cacheIdentity);
      const source = model && !sameModel(id, target) ? { spec, identity: id, session: adapterSessions(model) } : undefined;
      for (const variant of wanted)
        all.push({ name: `${id} @ this run`, variant, source: id, origin: `this run (${spec})`, ...(source ? { model: source } : {}) });
    }
  } catch (err) {
    await close();
    throw err;
  }
  const of = (v: AddAnyVariant): TransferSets =>
    splitSets(
      all.filter((x) => x.variant === v),
      target,
    );
  return { target, sets: { addany: of('addany'), addcommon: of('addcommon') }, close };
}
