/**
 * `textstress fool-transfer` (a fooling run's sentences scored by other models, each against its own T_task) and
 * `textstress fool-augment` (the sentences as labelled training examples for adversarial training). `textstress
 * fool` itself is the `fooling` recipe's verb.
 */
import { Command } from 'commander';
import { foolingAugment } from '../../families/fooling/augment.ts';
import { transferText } from '../../families/fooling/tables.ts';
import { saveTransfer, transferFooling } from '../../families/fooling/transfer.ts';
import { openModel } from '../../runner/open.ts';

export function foolTransferCommand(): Command {
  return new Command('fool-transfer')
    .description("score a fooling run's sentences with other models, each against its own T_task (EFSG transfer, Figure 4)")
    .requiredOption('--from <dir>', 'the --out folder of a finished `textstress fool` run')
    .requiredOption('--models <specs>', 'comma-separated model specs (folders, built-in names, hub ids, URLs)', (v: string) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .option('--train <file>', "training file for each model's T_task (default: the run's --train)")
    .option('--out <file>', 'where to write the table (default: <from>/transfer.json; it is also recorded in <from>/summary.json)')
    .option('--json', 'print JSON instead of a table')
    .addHelpText(
      'after',
      '\nExample:\n  textstress fool-transfer --from OUT --models models/extra/demo-sst2-seed14,models/extra/demo-sst2-large\n',
    )
    .action(async (opts: { from: string; models: string[]; train?: string; out?: string; json?: boolean }) => {
      const table = await transferFooling(opts.from, {
        models: opts.models,
        ...(opts.train ? { train: opts.train } : {}),
        open: (spec) => openModel({ model: spec }),
      });
      saveTransfer(opts.from, table, opts.out);
      process.stdout.write(opts.json ? JSON.stringify(table, null, 2) + '\n' : transferText(table) + '\n');
    });
}

export function foolAugmentCommand(): Command {
  return new Command('fool-augment')
    .description(
      "write a fooling run's sentences as training examples of the non-target class, in the training file's format (adversarial training)",
    )
    .requiredOption('--from <dir>', 'the --out folder of a finished `textstress fool` run')
    .requiredOption('-o, --out <file>', 'file to write (e.g. extra-train.tsv)')
    .option('--label <name>', 'label to give them (default: the other class of a binary task)')
    .addHelpText(
      'after',
      '\nThen, e.g.: /usr/bin/python3 scripts/train/train_bert.py --task sst2 --extra-train FILE --out models/extra/demo-sst2-adv\n',
    )
    .action(async (opts: { from: string; out: string; label?: string }) => {
      const r = await foolingAugment(opts.from, opts.out, opts.label ?? null);
      process.stdout.write(`${r.written} fooling sentences labelled "${r.label}" → ${r.out} (${r.format})\n`);
    });
}
