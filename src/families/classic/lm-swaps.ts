/**
 * The word swaps of TextBugger, BAE and TextFooler that ask a resource: embedding neighbours (TextAttack's
 * WordSwapEmbedding), a masked LM's words at the word's place (WordSwapMaskedLM, method "bae"), and what the
 * embedding recipes use without word vectors (WordNet synonyms, then the masked LM's words). Each counts what an
 * example cost it (ExampleCounts) for the example's result.
 */
import type { WordEmbeddings } from '../../data/embeddings/index.ts';
import type { AttackSubject } from '../../core/subject.ts';
import type { Transformation } from '../../core/transformation.ts';
import type { AttackState } from '../../core/state.ts';
import { maskedWords, type MaskFiller, type MaskedWordOptions } from '../../perturb/classic/masked-lm.ts';
import { recoverWordCase } from '../../perturb/classic/recover-case.ts';
import type { WordCandidate } from '../../text/edits.ts';
import { WordNetSynonyms as WordNet } from '../../perturb/classic/wordnet-synonyms.ts';
import type { ExampleCounts, LmResources } from './lm-resources.ts';

/** A transformation with only the asynchronous form: `candidates` names the search it needs. */
function asyncOnly(name: string, prepare: (subject: AttackSubject) => Transformation['candidatesAsync']): Transformation {
  const refuse = (): never => {
    throw new Error(
      `${name} asks a model or an index for its words: it needs a search that awaits candidates (the classic greedy search does)`,
    );
  };
  return {
    name,
    candidates: refuse,
    prepare: async (subject) => ({ name, candidates: refuse, candidatesAsync: prepare(subject) }),
  };
}

/**
 * The `k` nearest neighbours of the (lower-cased) word in the embeddings, in its case (TextAttack's WordSwapEmbedding):
 * the example's words are searched together when it starts; a word not in the vocabulary has none.
 */
export function embeddingSwap(emb: WordEmbeddings, k: number, type: string, counts: ExampleCounts): Transformation {
  return asyncOnly(`embedding-neighbours(${k})`, (subject) => {
    // Searched once per example, together: the words of the original are the only ones the search edits.
    const first = emb.neighbours(
      subject.original.words.map((w) => w.toLowerCase()),
      k,
    );
    return async (state, indices) => {
      await first;
      const words = indices.map((i) => state.seq.words[i]!);
      const lower = words.map((w) => w.toLowerCase());
      counts.add(subject, 'embedding_words', lower);
      const found = await emb.neighbours(lower, k);
      return indices.flatMap((i, n) =>
        (found.get(words[n]!.toLowerCase()) ?? []).flatMap(({ word }) => {
          const after = recoverWordCase(word, words[n]!);
          return after === words[n] ? [] : [{ wordIndex: i, after, type }];
        }),
      );
    };
  });
}

/** The field with word `i` replaced by the mask token (the whole field: the attack window's words and the rest). */
function maskedField(lm: MaskFiller, subject: AttackSubject, state: AttackState, i: number): string {
  const v = subject.fields(state.seq.replace(i, lm.maskToken))[subject.field];
  return Array.isArray(v) ? v.join(' ') : String(v);
}

/** Each asked position's masked-LM words (one batch for all positions), as maskedWords filters them. */
async function maskedLmWords(
  lm: MaskFiller,
  opts: MaskedWordOptions,
  subject: AttackSubject,
  state: AttackState,
  indices: readonly number[],
  counts: ExampleCounts,
): Promise<string[][]> {
  if (!indices.length) return [];
  const texts = indices.map((i) => maskedField(lm, subject, state, i));
  const preds = await lm.predict(texts);
  counts.add(subject, 'masked_lm_texts', texts);
  return preds.map((p) => maskedWords(p, (id) => lm.token(id), lm.scheme, opts));
}

/**
 * BAE-R: the word replaced by each of the masked LM's words at its place (TextAttack's WordSwapMaskedLM, method
 * "bae"), unless it is the word itself or has no ASCII letter.
 */
export function maskedLmSwap(lm: MaskFiller, opts: MaskedWordOptions, type: string, counts: ExampleCounts): Transformation {
  return asyncOnly(`masked-lm(${opts.maxCandidates}, ${opts.subwords} sub-words)`, (subject) => async (state, indices) => {
    const targets = indices.filter((i) => i < state.seq.length);
    const words = await maskedLmWords(lm, opts, subject, state, targets, counts);
    return targets.flatMap((i, n) =>
      words[n]!.filter((w) => w !== state.seq.words[i] && /[a-zA-Z]/.test(w)).map((after): WordCandidate => ({
        wordIndex: i,
        after,
        type,
      })),
    );
  });
}

/**
 * Without word vectors: the word's WordNet synonyms (PWWS's source, in WordNet's order), then — with a masked LM —
 * its words at the word's place, best first, each once (case-insensitively), `k` in all. Typed `<recipe>:wordnet`
 * and `<recipe>:mlm`, so results show which source each swap came from.
 */
export function wordnetMlmSwap(
  k: number,
  typePrefix: string,
  wordnet: WordNet,
  mlm: { lm: MaskFiller; opts: MaskedWordOptions } | undefined,
  counts: ExampleCounts,
): Transformation {
  return asyncOnly(`wordnet${mlm ? '+masked-lm' : ''}(${k})`, (subject) => async (state, indices) => {
    const targets = indices.filter((i) => i < state.seq.length);
    const lmWords = mlm ? await maskedLmWords(mlm.lm, { ...mlm.opts, maxCandidates: k }, subject, state, targets, counts) : [];
    return targets.flatMap((i, n) => {
      const word = state.seq.words[i]!;
      const seen = new Set([word.toLowerCase()]);
      const out: WordCandidate[] = [];
      const take = (w: string, source: string): void => {
        if (out.length >= k || seen.has(w.toLowerCase()) || !/[a-zA-Z]/.test(w)) return;
        seen.add(w.toLowerCase());
        out.push({ wordIndex: i, after: w, type: `${typePrefix}:${source}` });
      };
      for (const w of wordnet.of(word)) take(w, 'wordnet');
      for (const w of lmWords[n] ?? []) take(recoverWordCase(w, word), 'mlm');
      return out;
    });
  });
}

/**
 * The neighbour swap of a word-vector recipe (`<recipe>:embedding`): the `k` nearest neighbours when there are word
 * vectors, else WordNet synonyms and then the masked LM's words (when there is one), `k` in all.
 */
export function neighbourSwap(r: LmResources, k: number, recipe: string, subwords: 'strip' | 'drop'): Transformation {
  if (r.embeddings) return embeddingSwap(r.embeddings, k, `${recipe}:embedding`, r.counts);
  const mlm = r.mlm ? { lm: r.mlm, opts: { maxCandidates: k, minConfidence: 0, subwords } } : undefined;
  return wordnetMlmSwap(k, recipe, new WordNet(), mlm, r.counts);
}
