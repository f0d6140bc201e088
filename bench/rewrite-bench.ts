/**
 * Rewriting long texts (issue 25, item 6): QA context noise (every context word rewritten, one rewriteExample call)
 * on contexts of 18.8k, 60.8k and 600k characters; wall time of qaContextNoise.
 * Usage: npx tsx bench/rewrite-bench.ts [--sizes 18800,60800,600000] [--type swap]
 */
import { parseArgs } from 'node:util';
import type { QaExample } from '../src/data/types.ts';
import { qaContextNoise } from '../src/families/stress/qa/noise.ts';
import { isNoiseType } from '../src/perturb/noise/noise.ts';

const { values } = parseArgs({
  options: { sizes: { type: 'string', default: '18800,60800,600000' }, type: { type: 'string', default: 'swap' } },
});
const type = values.type!;
if (!isNoiseType(type)) throw new Error(`unknown noise type ${type}`);

const PARAGRAPH =
  'The Normans were the people who in the 10th and 11th centuries gave their name to Normandy, a region in France. ' +
  'They were descended from Norse raiders and pirates from Denmark, Iceland and Norway who, under their leader Rollo, ' +
  "agreed to swear fealty to King Charles III of West Francia. Through generations of assimilation they'd adopted " +
  'the Gallo-Romance language and culture of the local population. ';

/** A QA example whose context is about `size` characters, with its answer in the middle. */
function longExample(size: number): QaExample {
  let context = '';
  while (context.length < size) context += PARAGRAPH;
  context = context.slice(0, size);
  const start = context.indexOf('Rollo', Math.floor(size / 2));
  return { kind: 'qa', id: `long-${size}`, question: 'Who led the Norse raiders?', context, answers: [{ text: 'Rollo', start }] };
}

for (const size of values.sizes!.split(',').map(Number)) {
  const example = longExample(size);
  const t0 = performance.now();
  const noised = qaContextNoise(example, type, { seed: 1 });
  const t1 = performance.now();
  console.log(
    `${String(size).padStart(7)} chars: qaContextNoise ${((t1 - t0) / 1000).toFixed(2)} s, ${noised.edits.length} edits; answer kept: ${noised.example.context
      .slice(noised.example.answers[0]!.start)
      .startsWith('Rollo')}`,
  );
}
