/**
 * The gazetteer annotator's precision and recall against CoNLL-2003 gold mentions, per type, on the text as written
 * and lower-cased (how SST-2 writes it): the figures docs/entities.md states (issue 34).
 *   npx tsx scripts/annotator-accuracy.ts [CONLL_FILE…] [--json] [--false-positives N]
 * Default file: ../shared/data/conll2003/eng.testb. Exact span and type, as CoNLL scores; 95% Wilson intervals
 * clustered by sentence.
 */
import { openDataset } from '../src/data/index.ts';
import type { TokenExample } from '../src/data/types.ts';
import { gazetteerAnnotator, loadDictionaries } from '../src/entities/index.ts';
import { scoreAnnotator, type AnnotatorScore } from '../src/entities/accuracy.ts';
import { formatGrid } from '../src/util/table.ts';

const args = process.argv.slice(2);
const json = args.includes('--json');
const fpAt = args.indexOf('--false-positives');
const showFp = fpAt >= 0 ? Number(args[fpAt + 1]) : 0;
const files = args.filter((a, i) => !a.startsWith('--') && !(fpAt >= 0 && i === fpAt + 1));
if (!files.length) files.push('../shared/data/conll2003/eng.testb');

async function* tokens(file: string): AsyncIterable<TokenExample> {
  const data = await openDataset(file);
  for await (const ex of data.examples()) if (ex.kind === 'tokens') yield ex;
}

const iv = (x: { value: number | null; low: number | null; high: number | null }): string =>
  x.value === null ? 'n/a' : `${(100 * x.value).toFixed(1)}% [${(100 * x.low!).toFixed(1)}, ${(100 * x.high!).toFixed(1)}]`;

function table(s: AnnotatorScore, file: string): string {
  const rows = Object.entries(s.byType).map(([t, m]) => [
    t,
    String(m.gold),
    String(m.found),
    String(m.matched),
    iv(m.precision),
    iv(m.recall),
    m.f1 === null ? 'n/a' : `${(100 * m.f1).toFixed(1)}%`,
  ]);
  return (
    `${s.annotator} on ${file}, ${s.lowercase ? 'lower-cased' : 'as written'} (${s.sentences} sentences)\n` +
    formatGrid(['type', 'gold', 'found', 'exact', 'precision [95%]', 'recall [95%]', 'F1'], rows)
  );
}

const annotator = gazetteerAnnotator(await loadDictionaries());
const out: (AnnotatorScore & { file: string })[] = [];
for (const file of files) {
  for (const lowercase of [false, true]) {
    const s = await scoreAnnotator(annotator, tokens(file), { lowercase, keep: Math.max(showFp, 50) });
    out.push({ ...s, file });
    if (!json) {
      process.stdout.write(table(s, file) + '\n');
      for (const f of s.falsePositives.slice(0, showFp)) {
        process.stdout.write(`  false ${f.type}: "${f.text}" (${f.id}${f.gold ? `; gold ${f.gold}` : ''})\n`);
      }
      process.stdout.write('\n');
    }
  }
}
if (json) process.stdout.write(JSON.stringify(out, null, 2) + '\n');
