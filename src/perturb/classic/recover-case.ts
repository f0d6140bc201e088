/**
 * TextAttack's recover_word_case (word_swap_embedding.py): a replacement takes the case of the word it replaces when
 * that word is all lower case, ALL CAPITALS (two letters or more) or Capitalised; any other shape leaves it as it is.
 * Python's str.islower / isupper: true when the word has a cased letter and every cased letter is of that case.
 */
const hasCased = (s: string): boolean => s.toLowerCase() !== s.toUpperCase();
const isLower = (s: string): boolean => hasCased(s) && s === s.toLowerCase();
const isUpper = (s: string): boolean => hasCased(s) && s === s.toUpperCase();

export function recoverWordCase(word: string, reference: string): string {
  if (isLower(reference)) return word.toLowerCase();
  if (isUpper(reference) && reference.length > 1) return word.toUpperCase();
  const first = reference.slice(0, 1);
  const rest = reference.slice(1);
  // Python's capitalize(): the first character upper case, the rest lower case.
  if (isUpper(first) && isLower(rest)) return word.slice(0, 1).toUpperCase() + word.slice(1).toLowerCase();
  return word;
}
