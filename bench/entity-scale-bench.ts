/**
 * The entity annotator and replacement on one long text (issue 35 item 4): seconds for the gazetteer annotator,
 * planReplacement and applyPlan (PER) at 10k, 100k and 600k characters, and the longest the event loop went without a
 * turn (what SIGTERM waits for). Linear work keeps seconds/char flat across sizes.
 *
 *   npx tsx bench/entity-scale-bench.ts [--sizes 10000,100000,600000] [--repeats 1]
 */
import { parseArgs } from 'node:util';
import { applyPlan, gazetteerAnnotator, loadDictionaries, planReplacement } from '../src/entities/index.ts';
import { Rng } from '../src/util/rng.ts';

const { values } = parseArgs({
  options: { sizes: { type: 'string', default: '10000,100000,600000' }, repeats: { type: 'string', default: '1' } },
});
const SENTENCES = [
  'John Smith met Mary Jones in Paris before flying to Germany with Acme Corp staff .',
  'the film , directed by Steven Spielberg , is a warm and moving story about Tom Hanks in New York .',
  'Smith said that the French team from Lyon beat the Italian side , and Mary agreed .',
  'an uneven but often funny comedy that never quite finds its feet .',
];
const textOf = (chars: number): string => {
  let s = '';
  for (let i = 0; s.length < chars; i++) s += SENTENCES[i % SENTENCES.length] + ' ';
  return s.slice(0, chars);
};

const dicts = await loadDictionaries();
const annotator = gazetteerAnnotator(dicts);
for (const size of values.sizes.split(',').map(Number)) {
  for (let r = 0; r < Number(values.repeats); r++) {
    const ex = { kind: 'text' as const, id: 'x', text: textOf(size), label: '0' };
    // The longest gap between event-loop turns while the work runs.
    let last = performance.now();
    let longest = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 10);
    const t0 = performance.now();
    const [mentions] = await annotator.annotate([ex]);
    const t1 = performance.now();
    const plan = planReplacement(mentions!, 'PER', dicts, new Rng(0));
    const t2 = performance.now();
    applyPlan(ex, mentions!, plan);
    const t3 = performance.now();
    await new Promise((res) => setTimeout(res, 20));
    clearInterval(ticker);
    console.log(
      JSON.stringify({
        chars: size,
        mentions: mentions!.length,
        annotate_s: +((t1 - t0) / 1000).toFixed(3),
        plan_s: +((t2 - t1) / 1000).toFixed(3),
        apply_s: +((t3 - t2) / 1000).toFixed(3),
        longest_block_ms: Math.round(longest),
      }),
    );
  }
}
