/**
 * Which label names mean the same class, for suggesting a --label-map: by name only (a prefix, a known synonym),
 * never by position (issue 34: pairing `pos`/`neg` with `negative`/`positive` by position swapped the classes).
 */
/** Label names that mean the same, for suggesting a --label-map (compared after normaliseLabel). */
const SYNONYMS: readonly (readonly string[])[] = [
  ['positive', 'pos', 'good', 'favorable', 'favourable'],
  ['negative', 'neg', 'bad', 'unfavorable', 'unfavourable'],
  ['entailment', 'entails', 'entailed', 'entail'],
  ['notentailment', 'nonentailment', 'notentailed', 'noentailment'],
  ['contradiction', 'contradicts', 'contradictory', 'contradict'],
  ['neutral', 'neither'],
  ['acceptable', 'grammatical'],
  ['unacceptable', 'ungrammatical'],
  ['equivalent', 'paraphrase'],
  ['notequivalent', 'notparaphrase', 'nonparaphrase'],
];

/** A label name compared for likeness: lower case, letters and digits only ("not_entailment" → "notentailment"). */
const normaliseLabel = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/** Whether a dataset label and a model label name the same class: one a prefix of the other (3+ letters) or synonyms. */
function alike(a: string, b: string): boolean {
  const x = normaliseLabel(a);
  const y = normaliseLabel(b);
  if (!x || !y) return false;
  if (x === y) return true;
  if (Math.min(x.length, y.length) >= 3 && (x.startsWith(y) || y.startsWith(x))) return true;
  return SYNONYMS.some((group) => group.includes(x) && group.includes(y));
}

/**
 * A --label-map for dataset labels that match no model label, paired by name alone (`pos` → `positive`, `bad` →
 * `negative`): each dataset label gets the one model label it is like, and no model label is taken twice. Labels
 * with no such partner (or several) get none: a pairing by position would as likely swap the classes as map them,
 * and a swapped map scores every example wrong. Undefined when no label could be paired.
 */
export function suggestLabelMap(unmatched: readonly string[], modelLabels: readonly string[]): string | undefined {
  const pairs: string[] = [];
  const taken = new Set<string>();
  for (const label of unmatched) {
    const like = modelLabels.filter((m) => alike(label, m));
    if (like.length !== 1 || taken.has(like[0]!)) continue;
    // The same model label claimed by another unmatched dataset label is ambiguous: leave both out.
    if (unmatched.some((other) => other !== label && alike(other, like[0]!))) continue;
    taken.add(like[0]!);
    pairs.push(`${label}=${like[0]}`);
  }
  return pairs.length ? pairs.join(',') : undefined;
}
