import type { DataFormat, DatasetInfo, Example } from './types.ts';

/**
 * Writes examples back in a dataset's own file format, so that generated data (e.g. adversarial
 * augmentation, an entity probe's D_worst) feeds the same training scripts as the original. Returns undefined
 * for formats that have no writer here (csv, tsv, jsonl: callers write JSONL instead).
 */
export function writeInFormat(format: DataFormat, info: DatasetInfo, examples: readonly Example[]): string | undefined {
  const idx = (label: string): string => {
    const k = info.labelNames?.indexOf(label) ?? -1;
    return k >= 0 ? String(k) : label;
  };
  const clean = (s: string): string => s.replace(/[\t\r\n]+/g, ' ');
  const lines: string[] = [];
  switch (format) {
    case 'sst2':
      lines.push('sentence\tlabel');
      for (const e of examples) if (e.kind === 'text') lines.push(`${clean(e.text)}\t${idx(e.label)}`);
      break;
    case 'cola':
      for (const e of examples)
        if (e.kind === 'text') lines.push(`textstress\t${idx(e.label)}\t${idx(e.label) === '0' ? '*' : ''}\t${clean(e.text)}`);
      break;
    case 'mrpc':
      lines.push('Quality\t#1 ID\t#2 ID\t#1 String\t#2 String');
      examples.forEach((e, k) => {
        if (e.kind === 'pair') lines.push(`${idx(e.label)}\taug${k}a\taug${k}b\t${clean(e.textA)}\t${clean(e.textB)}`);
      });
      break;
    case 'qnli':
      lines.push('index\tquestion\tsentence\tlabel');
      examples.forEach((e, k) => {
        if (e.kind === 'pair') lines.push(`aug${k}\t${clean(e.textA)}\t${clean(e.textB)}\t${e.label}`);
      });
      break;
    case 'sick':
      lines.push('pair_ID\tsentence_A\tsentence_B\tentailment_label\tSemEval_set');
      examples.forEach((e, k) => {
        if (e.kind === 'pair') lines.push(`aug${k}\t${clean(e.textA)}\t${clean(e.textB)}\t${e.label.toUpperCase()}\tTRAIN`);
      });
      break;
    case 'conll':
      // Token and IOB2 tag per line (the loader reads the tag from the last column), a blank line after each sentence.
      lines.push('-DOCSTART- O', '');
      for (const e of examples) if (e.kind === 'tokens') lines.push(...e.tokens.map((t, i) => `${t} ${e.tags[i] ?? 'O'}`), '');
      return lines.join('\n');
    case 'squad':
      return JSON.stringify({ version: '1.1', data: squadArticles(examples) }) + '\n';
    default:
      return undefined;
  }
  return lines.join('\n') + '\n';
}

/** SQuAD v1.1 articles: consecutive questions on the same context share a paragraph, on the same title an article. */
function squadArticles(examples: readonly Example[]): { title: string; paragraphs: { context: string; qas: unknown[] }[] }[] {
  const articles: { title: string; paragraphs: { context: string; qas: unknown[] }[] }[] = [];
  for (const e of examples) {
    if (e.kind !== 'qa') continue;
    const title = e.title ?? '';
    let article = articles[articles.length - 1];
    if (!article || article.title !== title) articles.push((article = { title, paragraphs: [] }));
    let paragraph = article.paragraphs[article.paragraphs.length - 1];
    if (!paragraph || paragraph.context !== e.context) article.paragraphs.push((paragraph = { context: e.context, qas: [] }));
    paragraph.qas.push({ id: e.id, question: e.question, answers: e.answers.map((a) => ({ text: a.text, answer_start: a.start })) });
  }
  return articles;
}

/** The file extension of a format's own files. */
export function extensionOf(format: DataFormat): string {
  const own: Partial<Record<DataFormat, string>> = { snli: 'jsonl', sick: 'txt', conll: 'conll', squad: 'json' };
  return own[format] ?? 'tsv';
}

/** One JSON object per example: the fields of the example, label as its name. */
export function toJsonl(examples: readonly Example[]): string {
  return examples.map((e) => JSON.stringify(e)).join('\n') + (examples.length ? '\n' : '');
}
