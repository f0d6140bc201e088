/**
 * What every probing run needs before its first step, built lazily (a resumed run skips `init`): the encoder opened
 * for inspection and the minimal pairs, the same for the same settings and seed.
 */
import type { Encoder } from '../../models/encoder/index.ts';
import type { BuildContext } from '../../recipes/registry/define.ts';
import type { GrammarErrorType } from '../../perturb/grammar/index.ts';
import { buildMinimalPairs, defaultSentenceSources, readSentences, type MinimalPairSet } from './domain.ts';
import { buildErrorSentences, pairsToSentences, type ProbeDesign, type ProbeSentence } from './layer-probe-sentences.ts';
import { PAIR_WORDS, PAPER_WORDS } from './sentences.ts';
import { TextstressError } from '../../util/errors.ts';
import { PACKAGE_ROOT } from '../../util/package-root.ts';
import type { EncoderDetails, SentenceDetails } from './tables.ts';

export interface Prepared {
  encoder: Encoder;
  /** The minimal pairs (pairs design; empty in the sentences design). */
  set: MinimalPairSet;
  /** The labelled probing sentences of either design. */
  probeSentences: ProbeSentence[];
  sentences: SentenceDetails;
  encoderDetails: EncoderDetails;
}

export interface PrepareOptions {
  modelId: string;
  /** Opens the model for inspection (BuildContext.openEncoder). */
  openEncoder: BuildContext['openEncoder'];
  text: readonly string[];
  /** Sources when `text` is empty. */
  defaultText: () => string[];
  types: readonly GrammarErrorType[];
  pairs: number;
  /** `pairs` (default): minimal pairs of 5–40 words; `sentences`: the paper's design, `sentences` per type of 10–60 words. */
  design?: ProbeDesign;
  sentences?: number;
  seed: number;
  maxLength: number;
  /** Whether hidden states and attentions are read (layer and head probes) or only the masked-LM logits (cloze). */
  internals?: boolean;
}

/** The prepared run, narrowed to one generator step: step i works on error type i and its pairs. */
export interface TypeStep {
  encoder: Encoder;
  type: GrammarErrorType;
  pairs: MinimalPairSet['pairs'];
  sentences: ProbeSentence[];
}

/** A lazy, memoised preparation; `close` releases the encoder. */
export function preparer(opts: PrepareOptions): { get(): Promise<Prepared>; step(i: number): Promise<TypeStep>; close(): Promise<void> } {
  let pending: Promise<Prepared> | undefined;
  return {
    get() {
      pending ??= (async () => {
        if (/^https?:\/\//.test(opts.modelId)) {
          throw new TextstressError(`probing reads the model's inner layers, which an HTTP endpoint (${opts.modelId}) does not give.`, {
            hint: 'Give a transformers.js model folder or hub id.',
          });
        }
        const encoder = await opts.openEncoder(opts.modelId, { maxLength: opts.maxLength, internals: opts.internals ?? true });
        const sources = opts.text.length ? [...opts.text] : opts.defaultText();
        const design = opts.design ?? 'pairs';
        const { sentences, perSource } = await readSentences(sources, design === 'pairs' ? PAIR_WORDS : PAPER_WORDS);
        const e = encoder.info;
        let set: MinimalPairSet = { pairs: [], made: {}, sentencesTried: 0 };
        let probeSentences: ProbeSentence[];
        let details: SentenceDetails;
        if (design === 'pairs') {
          set = buildMinimalPairs(sentences, { types: opts.types, perType: opts.pairs, seed: opts.seed });
          probeSentences = pairsToSentences(set.pairs);
          details = { design, sources: perSource, pairsMade: set.made, sentencesTried: set.sentencesTried };
        } else {
          const made = buildErrorSentences(sentences, { types: opts.types, perType: opts.sentences ?? 10_000, seed: opts.seed });
          probeSentences = made.sentences;
          details = {
            design,
            sources: perSource,
            pairsMade: {},
            sentencesMade: made.made,
            withErrors: made.withErrors,
            sentencesTried: made.sentencesTried,
          };
        }
        return {
          encoder,
          set,
          probeSentences,
          sentences: details,
          encoderDetails: {
            id: e.id,
            architecture: e.architecture,
            layers: e.layers,
            heads: e.heads,
            hiddenSize: e.hiddenSize,
            exported: e.exported,
          },
        };
      })();
      return pending;
    },
    async step(i) {
      const { encoder, set, probeSentences } = await this.get();
      const type = opts.types[i]!;
      return { encoder, type, pairs: set.pairs.filter((p) => p.type === type), sentences: probeSentences.filter((p) => p.type === type) };
    },
    async close() {
      if (pending) await (await pending.catch(() => undefined))?.encoder.close();
      pending = undefined;
    },
  };
}

/** The default probing sentences: CoLA train (acceptable) + SST-2 train when ../shared/data has them, else WordNet's. */
export const defaultPairText = (): string[] => defaultSentenceSources(PACKAGE_ROOT, 'train');
/** The default cloze sentences: the dev files (held out from demo-mlm's training) when present, else WordNet's. */
export const defaultClozeText = (): string[] => defaultSentenceSources(PACKAGE_ROOT, 'dev');
