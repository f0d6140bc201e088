/**
 * `textstress fool-transfer` (a fooling run's sentences scored by other models against one fixed T, or each against its own T_task) and
 * `textstress fool-augment` (the sentences as labelled training examples for adversarial training). `textstress
 * fool` itself is the `fooling` recipe's verb.
 */
import { z } from 'zod';
import { defineVerb } from '../../recipes/registry/verbs.ts';
import { foolingAugment } from './augment.ts';
import { transferText } from './tables.ts';
import { saveTransfer, transferFooling } from './transfer.ts';

export const foolTransferVerb = defineVerb({
  name: 'fool-transfer',
  summary:
    "score a fooling run's sentences with other models against one T, the source run's T_task as in the paper, or each model's own (EFSG transfer, Figure 4)",
  settings: z.strictObject({
    from: z.string().min(1).describe('the --out folder of a finished `textstress fool` run'),
    models: z.array(z.string().min(1)).min(1).describe('comma-separated model specs (folders, built-in names, hub ids, URLs)'),
    perModel: z
      .boolean()
      .default(false)
      .describe(
        "hold each model to its own T_task, computed like the run's (default: one T for every model, the source run's T_task, as in the paper)",
      ),
    threshold: z.number().min(0).max(1).optional().describe("the one T for every model (default: the source run's T_task)"),
    train: z.string().min(1).optional().describe("with --per-model: training file for each model's T_task (default: the run's --train)"),
    out: z
      .string()
      .min(1)
      .optional()
      .describe('where to write the table (default: <from>/transfer.json; it is also recorded in <from>/summary.json)'),
  }),
  cli: {
    from: { required: true, arg: '<dir>' },
    models: { required: true, arg: '<specs>' },
    threshold: { arg: '<T>' },
    train: { arg: '<file>' },
    out: { arg: '<file>' },
  },
  shared: ['json'],
  helpAfter: [
    'Examples:',
    '  textstress fool-transfer --from OUT --models models/extra/demo-sst2-seed14,models/extra/demo-sst2-large',
    '  textstress fool-transfer --from OUT --models models/extra/demo-sst2-seed14 --per-model   # each model its own T_task',
  ],
  async run(ctx) {
    const s = ctx.settings;
    const table = await transferFooling(s.from, {
      models: s.models,
      perModel: s.perModel,
      ...(s.threshold !== undefined ? { threshold: s.threshold } : {}),
      ...(s.train ? { train: s.train } : {}),
      open: (spec) => ctx.openModel(spec),
      engine: (model) => ctx.engine(model),
    });
    saveTransfer(s.from, table, s.out);
    ctx.print(ctx.shared.json ? JSON.stringify(table, null, 2) : transferText(table));
  },
});

export const foolAugmentVerb = defineVerb({
  name: 'fool-augment',
  summary:
    "write a fooling run's sentences as training examples of the non-target class, in the training file's format (adversarial training)",
  settings: z.strictObject({
    from: z.string().min(1).describe('the --out folder of a finished `textstress fool` run'),
    out: z.string().min(1).describe('file to write (e.g. extra-train.tsv)'),
    label: z.string().min(1).optional().describe('label to give them (default: the other class of a binary task)'),
  }),
  cli: { from: { required: true, arg: '<dir>' }, out: { required: true, short: 'o', arg: '<file>' }, label: { arg: '<name>' } },
  helpAfter: ['Then, e.g.: /usr/bin/python3 scripts/train/train_bert.py --task sst2 --extra-train FILE --out models/extra/demo-sst2-adv'],
  async run(ctx) {
    const r = await foolingAugment(ctx.settings.from, ctx.settings.out, ctx.settings.label ?? null);
    ctx.print(`${r.written} fooling sentences labelled "${r.label}" → ${r.out} (${r.format})`);
  },
});
