/**
 * `textstress fool-transfer` (a fooling run's sentences scored by other models, each against its own T_task) and
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
  summary: "score a fooling run's sentences with other models, each against its own T_task (EFSG transfer, Figure 4)",
  settings: z.strictObject({
    from: z.string().min(1).describe('the --out folder of a finished `textstress fool` run'),
    models: z.array(z.string().min(1)).min(1).describe('comma-separated model specs (folders, built-in names, hub ids, URLs)'),
    train: z.string().min(1).optional().describe("training file for each model's T_task (default: the run's --train)"),
    out: z
      .string()
      .min(1)
      .optional()
      .describe('where to write the table (default: <from>/transfer.json; it is also recorded in <from>/summary.json)'),
  }),
  cli: {
    from: { required: true, arg: '<dir>' },
    models: { required: true, arg: '<specs>' },
    train: { arg: '<file>' },
    out: { arg: '<file>' },
  },
  shared: ['json'],
  helpAfter: ['Example:', '  textstress fool-transfer --from OUT --models models/extra/demo-sst2-seed14,models/extra/demo-sst2-large'],
  async run(ctx) {
    const s = ctx.settings;
    const table = await transferFooling(s.from, {
      models: s.models,
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
