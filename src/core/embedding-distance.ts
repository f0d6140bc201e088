/**
 * TextAttack's WordEmbeddingDistance (textattack/constraints/semantics/word_embedding_distance.py) with min_cos_sim,
 * as TextFooler uses it: a replacement's word vector must have at least `minCosine` cosine similarity with the
 * original word's (both lower-cased, compare_against_original=True). A word the embeddings do not know passes
 * (include_unknown_words=True).
 */
import type { Constraint } from './constraints.ts';
import { originOf } from './state.ts';

/** What the constraint needs of word embeddings (data/embeddings's WordEmbeddings). */
export interface WordSimilarity {
  cosine(a: string, b: string): number | undefined;
}

/** The constraint: a replacement's cosine with the original word at least `minCosine` (unknown words pass). */
export function wordEmbeddingDistance(embeddings: WordSimilarity, minCosine: number): Constraint {
  return {
    name: `word-embedding-cosine(≥ ${minCosine})`,
    allows(state, candidate, subject) {
      if ((candidate.op ?? 'replace') !== 'replace') return true;
      const o = originOf(state, candidate.wordIndex);
      const word = o >= 0 ? subject.original.words[o] : undefined;
      if (word === undefined) return true;
      const cos = embeddings.cosine(word.toLowerCase(), candidate.after.toLowerCase());
      return cos === undefined || cos >= minCosine;
    },
  };
}
