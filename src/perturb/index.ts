/**
 * Word-level perturbations: Adv-BERT's six typo sources (typos/) and Belinkov & Bisk's noise types
 * (noise/). Everything is pure and seeded: same word, same rng state, same output.
 */
export * from './typos/index.ts';
export * from './noise/index.ts';
export { keyNeighbours, letterNeighbours, QWERTY_ROWS, QWERTY_SHIFTED_ROWS, QWERTY_ROW_X } from './keyboard.ts';
export { misspellingsOf, misspellingTable, MISSPELLINGS_LICENSE, MISSPELLINGS_PACKAGE } from './misspellings.ts';
export { caseShape, type CaseShape } from './case.ts';
