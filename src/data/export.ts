import type { DataFormat, DatasetInfo, Example } from './types.ts';

/**
 * Writes examples back in a dataset's own file format, so that generated data (e.g. adversarial
 * augmentation) feeds the same training scripts as the original. Returns undefined for formats that have
 * no writer here (JSONL is always written beside).
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
      for (const e of examples) if (e.kind === 'text') lines.push(`textstress\t${idx(e.label)}\t${idx(e.label) === '0' ? '*' : ''}\t${clean(e.text)}`);
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
    default:
      return undefined;
  }
  return lines.join('\n') + '\n';
}

/** The file extension of a format's own files. */
export function extensionOf(format: DataFormat): string {
  if (format === 'snli') return 'jsonl';
  return format === 'sick' ? 'txt' : 'tsv';
}

/** One JSON object per example: the fields of the example, label as its name. */
export function toJsonl(examples: readonly Example[]): string {
  return examples.map((e) => JSON.stringify(e)).join('\n') + (examples.length ? '\n' : '');
}
