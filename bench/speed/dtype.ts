/**
 * `--dtype` variants (issue 33, item 2): each weight type a model folder holds (transformers.js file names), its
 * speed against fp32 in paired rounds (predict() of the same SST-2 sentences, the order of the variants rotating each
 * round) and its agreement with fp32 on --n SST-2 dev sentences: the share of identical labels (Wilson 95%
 * interval), the largest difference of any class probability, and the mean difference of the fp32 label's.
 * The variants come from `npm run bench:model -- --dtypes fp16,q8,q4` (and `--from models/demo-sst2 --out
 * models/extra/demo-sst2 --dtypes fp16,q8,q4` for a trained model: a random model's labels are near ties).
 *
 *   npx tsx bench/speed/dtype.ts [--models models/extra/bench-base,models/extra/demo-sst2] [--n 300] [--rounds 5] [--batch 64]
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { collect, openDataset } from '../../src/data/index.ts';
import type { Example } from '../../src/data/types.ts';
import { dtypeOfFile, type Dtype } from '../../src/models/transformers/dtype.ts';
import { loadTransformersModel } from '../../src/models/transformers/load.ts';
import type { ClassOutput, ModelInput } from '../../src/models/types.ts';
import { wilson } from '../../src/stats/interval.ts';
import { args, fmt, list, machine, pairedRounds, ratios, ratioText, record, round, SST2, table } from './support.ts';

const a = args({ models: 'models/extra/bench-base,models/extra/demo-sst2', n: '300', rounds: '5', batch: '64', data: SST2 });
const examples = (await collect(await openDataset(a.data, { limit: Number(a.n) }))) as Example[];
const inputs: ModelInput[] = examples.map((e) => ({ kind: 'text', text: e.kind === 'text' ? e.text : '' }));
const timedInputs = inputs.slice(0, Number(a.batch));

console.log(JSON.stringify(machine()));
const out: Record<string, unknown>[] = [];
for (const dir of list(a.models)) {
  if (!existsSync(path.join(dir, 'onnx'))) {
    console.error(`${dir}: no such model folder (see the header of this file), skipped`);
    continue;
  }
  const files = readdirSync(path.join(dir, 'onnx')).filter((f) => dtypeOfFile(f) !== undefined);
  const dtypes = files.map((f) => dtypeOfFile(f)!).sort((x, y) => (x === 'fp32' ? -1 : y === 'fp32' ? 1 : x.localeCompare(y)));
  if (dtypes[0] !== 'fp32') {
    console.error(`${dir}: no fp32 model.onnx to compare with, skipped`);
    continue;
  }
  const models: Partial<Record<Dtype, Awaited<ReturnType<typeof loadTransformersModel>>>> = {};
  const load: Record<string, number> = {};
  for (const d of dtypes) {
    const t0 = performance.now();
    models[d] = await loadTransformersModel(dir, { dtype: d });
    load[d] = round((performance.now() - t0) / 1000);
  }
  // Agreement with fp32 over every sentence.
  const answers: Partial<Record<Dtype, ClassOutput[]>> = {};
  for (const d of dtypes) answers[d] = (await models[d]!.predict(inputs)) as ClassOutput[];
  const ref = answers.fp32!;
  const agreement = Object.fromEntries(
    dtypes.map((d) => {
      const ans = answers[d]!;
      const top = (o: ClassOutput): number => o.probs.indexOf(Math.max(...o.probs));
      const same = ans.filter((o, i) => top(o) === top(ref[i]!)).length;
      const maxDiff = Math.max(...ans.flatMap((o, i) => o.probs.map((p, k) => Math.abs(p - ref[i]!.probs[k]!))));
      const meanDiff = ans.reduce((s, o, i) => s + Math.abs(o.probs[top(ref[i]!)]! - ref[i]!.probs[top(ref[i]!)]!), 0) / ans.length;
      return [d, { same_label: wilson(same, ans.length), max_prob_diff: maxDiff, mean_label_prob_diff: meanDiff }];
    }),
  );
  // Speed: predict() of the same sentences, paired rounds.
  for (const d of dtypes) await models[d]!.predict(timedInputs.slice(0, 4));
  const arms = Object.fromEntries(
    dtypes.map((d) => [
      d,
      async () => {
        const t0 = performance.now();
        await models[d]!.predict(timedInputs);
        return (performance.now() - t0) / 1000;
      },
    ]),
  );
  const samples = await pairedRounds(arms, Number(a.rounds), (r) => console.error(`${dir}: round ${r + 1} of ${a.rounds}`));
  for (const d of dtypes) await models[d]!.close();
  const vs = ratios(samples, 'fp32');
  const sizes = Object.fromEntries(files.map((f) => [dtypeOfFile(f), Math.round(statSync(path.join(dir, 'onnx', f)).size / 2 ** 20)]));
  out.push({
    model: dir,
    n: inputs.length,
    batch: timedInputs.length,
    load_seconds: load,
    file_mb: sizes,
    agreement,
    vs_fp32: vs,
    round_seconds: samples,
  });
  console.log(
    `\n${dir}: ${inputs.length} SST-2 dev sentences for agreement, ${timedInputs.length} a round for speed, ${a.rounds} paired rounds\n`,
  );
  console.log(
    table(
      [
        'dtype',
        'file (MB)',
        'load (s)',
        'time ÷ fp32 [interval]',
        'same label as fp32 [95% CI]',
        'max |Δ prob|',
        "mean |Δ p(fp32's label)|",
      ],
      dtypes.map((d) => {
        const ag = agreement[d] as { same_label: ReturnType<typeof wilson>; max_prob_diff: number; mean_label_prob_diff: number };
        const s = ag.same_label;
        return [
          d,
          String(sizes[d]),
          fmt(load[d]!),
          ratioText(vs[d]!),
          `${fmt(100 * s.value!, 1)}% [${fmt(100 * s.low!, 1)}, ${fmt(100 * s.high!, 1)}] (n ${s.n})`,
          ag.max_prob_diff.toExponential(1),
          ag.mean_label_prob_diff.toExponential(1),
        ];
      }),
    ),
  );
}
record('dtype', { data: a.data, rounds: Number(a.rounds), results: out });
