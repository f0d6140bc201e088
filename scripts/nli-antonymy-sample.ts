/**
 * The first N antonymy pairs the NLI stress rule makes on SICK TEST (premise = sentence_A, seed 0, as
 * `textstress stress nli --split TEST` makes them), one TSV line each: pair id, premise, hypothesis. For judging
 * the rule by hand (docs/stress-tests.md, "Antonymy: judged pairs").
 *   npx tsx scripts/nli-antonymy-sample.ts ../shared/data/sick/SICK.txt 100
 */
import { readFileSync } from 'node:fs';
import { nliAntonymy } from '../src/families/stress/nli/antonymy.ts';

const [path = '../shared/data/sick/SICK.txt', count = '100'] = process.argv.slice(2);
const [head, ...rows] = readFileSync(path, 'utf8').split(/\r?\n/).filter(Boolean);
const col = (name: string): number => head!.split('\t').indexOf(name);
const [id, a, set] = [col('pair_ID'), col('sentence_A'), col('SemEval_set')];
let made = 0;
for (const row of rows) {
  const f = row.split('\t');
  if (f[set] !== 'TEST') continue;
  const [p] = nliAntonymy({ id: f[id]!, premise: f[a]!, hypothesis: '', label: 'neutral' }, { seed: 0 });
  if (!p) continue;
  process.stdout.write(`${f[id]}\t${p.premise}\t${p.hypothesis}\n`);
  if (++made >= Number(count)) break;
}
