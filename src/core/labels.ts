import { TextstressError } from '../util/errors.ts';

export { suggestLabelMap } from '../text/label-names.ts';

/**
 * Maps a dataset's gold label names onto a model's label indices. Tries, in order: an explicit user map,
 * the same name (case-insensitive), the model's generic LABEL_i against the dataset's i-th label name,
 * and a numeric gold label "i" against model index i.
 */
export class LabelAligner {
  private readonly memo = new Map<string, number>();

  constructor(
    readonly modelLabels: readonly string[],
    readonly datasetLabels: readonly string[] = [],
    readonly userMap: Readonly<Record<string, string>> = {},
  ) {}

  indexOf(gold: string): number {
    const hit = this.memo.get(gold);
    if (hit !== undefined) return hit;
    const idx = this.resolve(gold);
    if (idx < 0) {
      throw new TextstressError(`the dataset label "${gold}" matches none of the model's labels [${this.modelLabels.join(', ')}].`, {
        hint: 'Map them with --label-map, e.g. --label-map "0=NEGATIVE,1=POSITIVE".',
      });
    }
    this.memo.set(gold, idx);
    return idx;
  }

  private resolve(gold: string): number {
    const lower = (s: string): string => s.toLowerCase();
    const mapped = this.userMap[gold];
    if (mapped !== undefined) return this.modelLabels.findIndex((l) => lower(l) === lower(mapped));
    const same = this.modelLabels.findIndex((l) => lower(l) === lower(gold));
    if (same >= 0) return same;
    const dsIdx = this.datasetLabels.findIndex((l) => lower(l) === lower(gold));
    if (dsIdx >= 0 && lower(this.modelLabels[dsIdx] ?? '') === `label_${dsIdx}`) return dsIdx;
    if (/^\d+$/.test(gold)) {
      const n = Number(gold);
      if (n < this.modelLabels.length) return n;
    }
    return -1;
  }
}

/** Parses "a=b,c=d" into a record; throws a readable error on a malformed pair. */
export function parseLabelMap(spec: string | undefined): Record<string, string> {
  if (!spec) return {};
  const out: Record<string, string> = {};
  for (const part of spec.split(',')) {
    const [from, to, ...rest] = part.split('=');
    if (!from || !to || rest.length > 0) {
      throw new TextstressError(`--label-map: "${part}" is not of the form datasetLabel=modelLabel.`);
    }
    out[from.trim()] = to.trim();
  }
  return out;
}
