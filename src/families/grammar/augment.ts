/**
 * Adversarial augmentation (the grammar-error paper, §7): attack a training set with grammar errors (greedy by
 * default) and export the successful adversarial examples, with their gold labels, in the input's own format and
 * as JSONL, in sets of proportion p × the original size (first examples in data order); plus the whole set with
 * each successful adversarial version in place of its original, a fixed "transfer" test set on which another
 * model (e.g. one retrained on the augmented data) can be evaluated with `eval`.
 */
import { z } from 'zod';
import type { ExampleResult } from '../../core/result.ts';
import { extensionOf, toJsonl, writeInFormat } from '../../data/export.ts';
import type { Example } from '../../data/types.ts';
import { defineExperiment } from '../../recipes/registry/define.ts';
import { grammarShape } from './settings.ts';

/** The `augment` experiment's manifest.json: the files written for each proportion and the attacked set. */
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
 * The `augment` experiment: attacks the data with grammar errors and exports the successful adversarial examples
 * as training sets of several sizes, plus the whole set with each success in place of its original.
 */
export const augmentRecipe = defineExperiment({
  name: 'augment',
  summary:
    "generates grammar-error adversarial training examples (the grammar paper's §7) and exports them at proportions " +
    "of the original size, in the data's own format and JSONL",
  paper: 'Yin et al. 2020, §7 and Figure 5',
  tasks: ['text-classification', 'pair-classification'],
  // The grammar recipe's own settings, passed on to its run (its schema checks them there too).
  settings: z.strictObject({
    ...grammarShape,
    proportions: z
      .array(z.number().gt(0))
      .min(1)
      .default([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0])
      .describe('sizes of the exported sets, as fractions of the original size'),
  }),
  build(s) {
    const { proportions: _proportions, ...grammar } = s;
    const run = { dir: 'attack', recipe: 'grammar', settings: grammar };
    return {
      runs: [run],
      async combine(c) {
        const outcome = c.runs[0]!;
        // Only the successful attacks are kept in memory; the examples stream past.
        const successes = new Map<string, ExampleResult>();
        for await (const r of c.results(outcome)) if (r.status === 'succeeded') successes.set(r.id, r);
        const adversarial: Example[] = [];
        const attackedSet: Example[] = [];
        let total = 0;
        for await (const e of c.examples()) {
          total++;
          const r = successes.get(e.id);
          if (!r) {
            attackedSet.push(e);
            continue;
          }
          const adv = adversarialExample(e, r);
          adversarial.push(adv);
          attackedSet.push({ ...adv, id: e.id });
        }
        const files: AugmentManifest['files'] = [];
        for (const p of s.proportions) {
          const requested = Math.round(p * total);
          const chosen = adversarial.slice(0, requested);
          const dir = `p${p.toFixed(1)}`;
          const jsonl = c.writeText(`${dir}/augmented.jsonl`, toJsonl(chosen));
          const own = writeInFormat(c.format, c.data, chosen);
          const formatFile = own === undefined ? undefined : c.writeText(`${dir}/augmented.${extensionOf(c.format)}`, own);
          files.push({ proportion: p, requested, written: chosen.length, ...(formatFile ? { format_file: formatFile } : {}), jsonl });
        }
        const attackedOwn = writeInFormat(c.format, c.data, attackedSet);
        const attackedFile = attackedOwn === undefined ? undefined : c.writeText(`attacked-set.${extensionOf(c.format)}`, attackedOwn);
        const attackedJsonl = c.writeText('attacked-set.jsonl', toJsonl(attackedSet));
        const manifest: AugmentManifest = {
          model: c.model,
          dataset: c.dataset,
          format: c.format,
          original_examples: total,
          adversarial_examples: adversarial.length,
          search: s.search,
          budget: s.budget,
          files,
          attacked_set: { ...(attackedFile ? { format_file: attackedFile } : {}), jsonl: attackedJsonl, replaced: successes.size },
        };
        const lines = [
          `${manifest.adversarial_examples} adversarial examples from ${manifest.original_examples} (${manifest.search}, budget ${manifest.budget})`,
        ];
        for (const f of manifest.files)
          lines.push(`  p=${f.proportion}: ${f.written}/${f.requested} → ${f.format_file ?? '(no writer for this format)'}, ${f.jsonl}`);
        lines.push(
          `  attacked set (all examples, ${successes.size} replaced by their adversarial version): ${attackedFile ?? attackedJsonl}`,
        );
        return { files: { 'manifest.json': manifest }, json: manifest, text: lines.join('\n') };
      },
    };
  },
});

/** The example with the attacked field replaced by its adversarial version; the gold label is kept. */
function adversarialExample(e: Example, r: ExampleResult): Example {
  const id = `${e.id}#adv`;
  if (e.kind === 'text') return { ...e, id, text: String(r.perturbed.text) };
  if (e.kind === 'pair') return { ...e, id, textA: String(r.perturbed.textA), textB: String(r.perturbed.textB) };
  return e;
}
