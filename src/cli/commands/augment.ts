import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import type { ExampleResult } from '../../attack/result.ts';
import { extensionOf, toJsonl, writeInFormat } from '../../data/export.ts';
import { detectFormat, parseFormat } from '../../data/open.ts';
import type { Example } from '../../data/types.ts';
import { GRAMMAR_SEARCHES, type GrammarSearchName } from '../../recipes/grammar.ts';
import { TextstressError } from '../../util/errors.ts';
import { addDataOptions, addModelOptions, addRunOptions, fraction, list } from '../options.ts';
import { runRecipe, type RunCliOptions } from '../run-recipe.ts';
import { openData } from '../setup.ts';
import { attackBuilder, type AttackCliOptions } from './attack.ts';

interface AugmentOptions extends RunCliOptions {
  search: GrammarSearchName;
  budget: number;
  proportions: string[];
  errorTypes?: string;
  field?: AttackCliOptions['field'];
}

export interface AugmentManifest {
  model: string;
  dataset: string;
  format: string;
  original_examples: number;
  adversarial_examples: number;
  search: string;
  budget: number;
  files: { proportion: number; requested: number; written: number; format_file?: string; jsonl: string }[];
  /** Every original example, the successful adversarial versions in place of theirs. */
  attacked_set: { format_file?: string; jsonl: string; replaced: number };
}

/**
 * Adversarial augmentation (the grammar-error paper, §7): attack a training set with grammar errors
 * (greedy by default) and export the successful adversarial examples, with their gold labels, in the input's
 * own format and as JSONL, in sets of proportion p × the original size (first examples in data order).
 */
export function augmentCommand(): Command {
  const cmd = new Command('augment')
    .description("generate grammar-error adversarial training examples (the grammar paper's §7) and export them at proportions of the original size, in the data's own format and JSONL")
    .addOption(new Option('--search <name>', 'search that finds the adversarial examples').choices([...GRAMMAR_SEARCHES]).default('greedy'))
    .option('--budget <fraction>', 'most words modified, as a fraction of the words', fraction('--budget'), 0.15)
    .option('--proportions <list>', 'sizes of the exported sets, as fractions of the original size', list, ['0.1', '0.2', '0.3', '0.4', '0.5', '0.6', '0.7', '0.8', '0.9', '1.0'])
    .option('--error-types <list>', 'error types to use (default all eight)')
    .addOption(new Option('--field <name>', 'field to perturb (pairs: textA or textB)').choices(['text', 'textA', 'textB']));
  addModelOptions(cmd);
  addDataOptions(cmd);
  addRunOptions(cmd);
  return cmd.action(async (opts: AugmentOptions) => {
    const out = opts.out ?? 'runs/augment';
    const manifest = await augment({ ...opts, out });
    if (opts.json) process.stdout.write(JSON.stringify(manifest, null, 2) + '\n');
    else {
      process.stdout.write(`${manifest.adversarial_examples} adversarial examples from ${manifest.original_examples} (${manifest.search}, budget ${manifest.budget})\n`);
      for (const f of manifest.files) {
        process.stdout.write(`  p=${f.proportion}: ${f.written}/${f.requested} → ${f.format_file ?? '(no writer for this format)'}, ${f.jsonl}\n`);
      }
      const a = manifest.attacked_set;
      process.stdout.write(`  attacked set (all examples, ${a.replaced} replaced by their adversarial version): ${a.format_file ?? a.jsonl}\n`);
    }
  });
}

export async function augment(opts: AugmentOptions & { out: string }): Promise<AugmentManifest> {
  const data = await openData(opts);
  if (data.info.kind !== 'text' && data.info.kind !== 'pair') {
    throw new TextstressError(`augment needs classification data (text or pairs); ${opts.data} holds ${data.info.kind} examples.`);
  }
  const format = opts.format ? parseFormat(opts.format) : await detectFormat(opts.data);
  const byId = new Map<string, Example>();
  for await (const e of data.examples()) byId.set(e.id, e);

  const attackOpts: AttackCliOptions = { ...opts, out: join(opts.out, 'attack'), target: 'max', k: 1, noise: 'swap', minLength: 1, quiet: true };
  const { results } = await runRecipe(attackOpts, attackBuilder('grammar', attackOpts));
  const adversarial = results.filter((r) => r.status === 'succeeded').map((r) => adversarialExample(byId.get(r.id)!, r));

  const files: AugmentManifest['files'] = [];
  for (const p of opts.proportions.map(Number)) {
    const requested = Math.round(p * byId.size);
    const chosen = adversarial.slice(0, requested);
    const dir = join(opts.out, `p${p.toFixed(1)}`);
    mkdirSync(dir, { recursive: true });
    const jsonl = join(dir, 'augmented.jsonl');
    writeFileSync(jsonl, toJsonl(chosen));
    const own = writeInFormat(format, data.info, chosen);
    const formatFile = own === undefined ? undefined : join(dir, `augmented.${extensionOf(format)}`);
    if (formatFile) writeFileSync(formatFile, own!);
    files.push({ proportion: p, requested, written: chosen.length, ...(formatFile ? { format_file: formatFile } : {}), jsonl });
  }
  // The whole set with each successful adversarial version in place of its original: a fixed "transfer" test
  // set on which any other model (e.g. one retrained on the augmented data) can be evaluated with `eval`.
  const advById = new Map(results.filter((r) => r.status === 'succeeded').map((r) => [r.id, r]));
  const attackedSet = [...byId.values()].map((e) => {
    const r = advById.get(e.id);
    return r ? { ...adversarialExample(e, r), id: e.id } : e;
  });
  const attackedOwn = writeInFormat(format, data.info, attackedSet);
  const attackedFile = attackedOwn === undefined ? undefined : join(opts.out, `attacked-set.${extensionOf(format)}`);
  if (attackedFile) writeFileSync(attackedFile, attackedOwn!);
  writeFileSync(join(opts.out, 'attacked-set.jsonl'), toJsonl(attackedSet));

  const manifest: AugmentManifest = {
    model: opts.model,
    dataset: opts.data,
    format,
    original_examples: byId.size,
    adversarial_examples: adversarial.length,
    search: opts.search,
    budget: opts.budget,
    files,
    attacked_set: { ...(attackedFile ? { format_file: attackedFile } : {}), jsonl: join(opts.out, 'attacked-set.jsonl'), replaced: advById.size },
  };
  writeFileSync(join(opts.out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

/** The example with the attacked field replaced by its adversarial version; the gold label is kept. */
function adversarialExample(e: Example, r: ExampleResult): Example {
  const id = `${e.id}#adv`;
  if (e.kind === 'text') return { ...e, id, text: String(r.perturbed.text) };
  if (e.kind === 'pair') return { ...e, id, textA: String(r.perturbed.textA), textB: String(r.perturbed.textB) };
  return e;
}
