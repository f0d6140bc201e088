/**
 * SQuAD v1.1's official answer scoring (evaluate-v1.1.py): normalise (lower case, drop ASCII punctuation, drop
 * the articles a/an/the, squeeze whitespace), then exact match and token-overlap F1, each the best over the
 * gold answers.
 */
const PUNCTUATION = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');
// Python's \b is Unicode-aware: an article must not touch a letter, digit or underscore of any script.
const ARTICLES = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;

/** SQuAD normalisation: lower case, ASCII punctuation and articles removed, whitespace squeezed. */
export function normalizeAnswer(s: string): string {
  let out = '';
  for (const ch of s.toLowerCase()) if (!PUNCTUATION.has(ch)) out += ch;
  return out.replace(ARTICLES, ' ').split(/\s+/).filter(Boolean).join(' ');
}

/** 1 when the normalised answers are equal, else 0. */
export function exactMatch(prediction: string, gold: string): number {
  return normalizeAnswer(prediction) === normalizeAnswer(gold) ? 1 : 0;
}

/** Token-overlap F1 (0–1) of the normalised answers; 0 when they share no token. */
export function answerF1(prediction: string, gold: string): number {
  const p = normalizeAnswer(prediction).split(' ').filter(Boolean);
  const g = normalizeAnswer(gold).split(' ').filter(Boolean);
  const counts = new Map<string, number>();
  for (const t of g) counts.set(t, (counts.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of p) {
    const c = counts.get(t) ?? 0;
    if (c > 0) {
      same++;
      counts.set(t, c - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / p.length;
  const recall = same / g.length;
  return (2 * precision * recall) / (precision + recall);
}

/** EM and F1 of a prediction, each the maximum over the gold answers (0 when there is none). */
export function bestOverGold(prediction: string, golds: readonly string[]): { em: number; f1: number } {
  let em = 0;
  let f1 = 0;
  for (const g of golds) {
    em = Math.max(em, exactMatch(prediction, g));
    f1 = Math.max(f1, answerF1(prediction, g));
  }
  return { em, f1 };
}
