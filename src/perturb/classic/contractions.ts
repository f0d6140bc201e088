/**
 * CheckList's contraction and expansion edits ("do not" ↔ "don't"), from our own table of English contractions
 * (TextAttack's EXTENSION_MAP covers the same ground). An expansion replaces one word with two or three; a
 * contraction replaces two or three words with one. Case follows the first letter of the original.
 */

/** Contraction → its expansion. Where a contraction reads two ways ("he'd": he would / he had), the first is taken. */
export const EXPANSIONS: Readonly<Record<string, string>> = {
  "aren't": 'are not',
  "can't": 'cannot',
  "couldn't": 'could not',
  "could've": 'could have',
  "didn't": 'did not',
  "doesn't": 'does not',
  "don't": 'do not',
  "hadn't": 'had not',
  "hasn't": 'has not',
  "haven't": 'have not',
  "he'd": 'he would',
  "he'll": 'he will',
  "he's": 'he is',
  "here's": 'here is',
  "how'd": 'how did',
  "how'll": 'how will',
  "how's": 'how is',
  "i'd": 'i would',
  "i'll": 'i will',
  "i'm": 'i am',
  "i've": 'i have',
  "isn't": 'is not',
  "it'd": 'it would',
  "it'll": 'it will',
  "it's": 'it is',
  "let's": 'let us',
  "ma'am": 'madam',
  "mightn't": 'might not',
  "might've": 'might have',
  "mustn't": 'must not',
  "must've": 'must have',
  "needn't": 'need not',
  "oughtn't": 'ought not',
  "shan't": 'shall not',
  "she'd": 'she would',
  "she'll": 'she will',
  "she's": 'she is',
  "shouldn't": 'should not',
  "should've": 'should have',
  "that'd": 'that would',
  "that's": 'that is',
  "there'd": 'there would',
  "there's": 'there is',
  "they'd": 'they would',
  "they'll": 'they will',
  "they're": 'they are',
  "they've": 'they have',
  "wasn't": 'was not',
  "we'd": 'we would',
  "we'll": 'we will',
  "we're": 'we are',
  "we've": 'we have',
  "weren't": 'were not',
  "what'll": 'what will',
  "what're": 'what are',
  "what's": 'what is',
  "what've": 'what have',
  "when's": 'when is',
  "where'd": 'where did',
  "where's": 'where is',
  "where've": 'where have',
  "who'd": 'who would',
  "who'll": 'who will',
  "who's": 'who is',
  "who've": 'who have',
  "why's": 'why is',
  "won't": 'will not',
  "wouldn't": 'would not',
  "would've": 'would have',
  "you'd": 'you would',
  "you'll": 'you will',
  "you're": 'you are',
  "you've": 'you have',
  // Penn Treebank tokenisation splits "isn't" into "is n't" (SST-2 is written so): its "n't" is "not".
  "n't": 'not',
};

/** Expansion → contraction (the first contraction listed for it; "n't" is never produced). */
const CONTRACTIONS: ReadonlyMap<string, string> = new Map(
  Object.entries(EXPANSIONS)
    .filter(([c]) => c !== "n't")
    .reverse()
    .map(([c, e]) => [e, c]),
);

const plain = (w: string): string => w.toLowerCase().replace(/’/g, "'");

/** `text` with its first letter in the case of `like`'s first letter. */
function caseLike(like: string, text: string): string {
  const first = like[0] ?? '';
  return first !== first.toLowerCase() ? text[0]!.toUpperCase() + text.slice(1) : text;
}

/** The expansion of one word ("Don't" → "Do not"), or undefined. */
export function expand(word: string): string | undefined {
  const e = EXPANSIONS[plain(word)];
  return e === undefined ? undefined : caseLike(word, e);
}

/** The contraction of the words at `i` (two or three of them: "do not", "could not have" is not one), or undefined. */
export function contract(words: readonly string[], i: number): { span: number; after: string } | undefined {
  for (const span of [2, 3]) {
    if (i + span > words.length) break;
    const key = words
      .slice(i, i + span)
      .map(plain)
      .join(' ');
    const c = CONTRACTIONS.get(key);
    if (c !== undefined) return { span, after: caseLike(words[i]!, c) };
  }
  return undefined;
}
