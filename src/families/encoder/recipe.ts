/**
 * `textstress probe layers|heads|cloze` (Yin et al. 2020, §5–6): where inside a BERT-family encoder grammatical
 * errors are noticed. Generators under the `probe` verb: no dataset (the sentences are a setting), one step per
 * error type, resumable after each.
 */
import { defineGenerator, type RecipeMetric } from '../../recipes/registry/define.ts';
import type { Interval } from '../../stats/index.ts';
import { clozeGenerator } from './cloze-generator.ts';
import { layerGenerator } from './layers-generator.ts';
import { clozeFamily, headsFamily, layersFamily } from './report.ts';
import { clozeSettings, errorTypesIn, headProbeSettings, layerProbeSettings } from './settings.ts';

const PAPER = 'Yin et al. 2020, On the Robustness of Language Encoders against Grammatical Errors, §5–6';
const ALL_TASKS = ['text-classification', 'pair-classification', 'token-classification', 'question-answering', 'fill-mask'] as const;

/**
 * A generator metric and its interval: the run's details keep each metric's interval by its name (layer probes:
 * Wilson at the types' effective sample size over the test sentences; the best head: Wilson; cloze: a bootstrap over
 * pairs). `range`: a share [0, 1]; a drop of probability [−1, 1].
 */
const metric = (
  description: string,
  key: string,
  display: Pick<RecipeMetric, 'label' | 'unit'>,
  range: readonly [number, number] = [0, 1],
): RecipeMetric => ({
  description,
  ...display,
  range,
  read: (s) => (s.metrics as Record<string, number | null> | undefined)?.[key],
  interval: (s) => {
    const iv = (s.details as { intervals?: Record<string, Interval> } | undefined)?.intervals?.[key];
    return iv && typeof iv.n === 'number' ? { ...iv, value: (s.metrics as Record<string, number | null>)[key] ?? null } : undefined;
  },
});

const SENTENCES_NOTE =
  'Sentences (--text): by default the acceptable sentences of CoLA train and SST-2 train when ../shared/data is beside the ' +
  'package, else the WordNet example sentences that ship with textstress.';

/** `textstress probe layers`: a layer probe per frozen layer and grammar error type (Yin et al. Tables 7 and 8). */
export const probeLayersRecipe = defineGenerator({
  name: 'probe-layers',
  summary:
    'trains a self-attention probe on each frozen layer to tell sentences with grammar errors from clean ones, per ' +
    "error type (Table 7), and checks whether the probe's attention finds the error (Table 8)",
  paper: PAPER,
  inspectsModel: true,
  group: 'probe',
  verb: 'layers',
  data: 'none',
  tasks: ALL_TASKS,
  settings: layerProbeSettings,
  report: layersFamily,
  figures: {
    test_sentences: { label: 'test sentences', unit: 'count' },
    best_accuracy_layer: { label: 'layer best on dev (accuracy)', unit: 'index' },
    best_localisation_layer: { label: 'layer best on dev (localisation)', unit: 'index' },
    best_head_localisation: { label: 'localisation, head best on dev', unit: 'rate' },
    localisation_chance: { label: 'localisation by chance', unit: 'rate' },
  },
  metrics: {
    layer0_accuracy: metric('probe accuracy on layer 0 (embeddings), mean over error types', 'layer0_accuracy', {
      label: 'probe accuracy, layer 0',
      unit: 'rate',
    }),
    best_layer_accuracy: metric(
      'best contextual layer (chosen on the dev split): probe accuracy on the test sentences, mean over error types',
      'best_layer_accuracy',
      { label: 'probe accuracy, layer best on dev', unit: 'rate' },
    ),
    layer0_localisation: metric("layer 0: share of error sentences whose error is in the probe's top-2 attention", 'layer0_localisation', {
      label: 'localisation, layer 0',
      unit: 'rate',
    }),
    best_layer_localisation: metric(
      'best contextual layer (chosen on the dev split): the same localisation share on the test sentences',
      'best_layer_localisation',
      { label: 'localisation, layer best on dev', unit: 'rate' },
    ),
  },
  helpAfter: [
    'Examples:',
    '  textstress probe layers --model models/demo-mlm --error-types all --out OUT',
    '  textstress probe layers --model models/demo-sst2 --error-types SVA,Prep --design pairs --pairs 500 --text my-sentences.txt --out OUT',
    '',
    "Per error type, the paper's data (--design sentences, default): --sentences (10,000) sentences of 10–60 words where",
    'the type applies, every second one given 1 or 2 errors of that type; or (--design pairs) minimal pairs of 5–40 words,',
    'a clean sentence and the same with one error. Errors are placed as the grammar attack places them. Split 80/10/10;',
    'per layer 0 (embeddings) … L, a probe (self-attention pooling, size 100, dropout 0.1, linear',
    'classifier; Adam 1e-3, batch 8, L2 1e-3, ≤ 10 epochs, patience 2) on the frozen token vectors. Prints Table 7 (test',
    "accuracy) and Table 8 (the probe attention's two heaviest tokens include the error) and, unless --no-heads, every",
    "attention head's top-2 check (Figure 3); writes layers.json. Any encoder's ONNX folder or hub id (BERT, RoBERTa, DeBERTa, ModernBERT …): the hidden",
    'states and attentions are read from the graph (exposed from it when the model does not export them).',
    SENTENCES_NOTE,
  ],
  build(s, ctx) {
    const types = errorTypesIn(s.errorTypes);
    return {
      generator: layerGenerator('probe-layers', {
        modelId: ctx.model.id,
        openEncoder: ctx.openEncoder,
        types,
        pairs: s.pairs,
        design: s.design,
        sentences: s.sentences,
        text: s.text,
        probes: true,
        heads: s.heads,
        headQuery: s.headQuery,
        examples: s.examples,
        maxEpochs: s.maxEpochs,
        maxLength: s.maxLength,
        seed: ctx.seed,
      }),
    };
  },
});

/** `textstress probe heads`: whether each attention head's heaviest tokens include the error (Figure 3), no training. */
export const probeHeadsRecipe = defineGenerator({
  name: 'probe-heads',
  summary:
    "checks, with no training, whether each attention head's two heaviest tokens include a simulated grammar error (Figure 3 / Appendix F)",
  paper: PAPER,
  inspectsModel: true,
  group: 'probe',
  verb: 'heads',
  data: 'none',
  tasks: ALL_TASKS,
  settings: headProbeSettings,
  report: headsFamily,
  metrics: {
    best_head_localisation: metric(
      'best attention head (chosen on the dev split): share of test sentences with an error whose error is in its top 2 tokens',
      'best_head_localisation',
      { label: 'localisation, head best on dev', unit: 'rate' },
    ),
  },
  helpAfter: [
    'Examples:',
    '  textstress probe heads --model models/demo-mlm --out OUT',
    '  textstress probe heads --model models/demo-sst2 --head-query cls --error-types Worder,SVA --out OUT',
    '',
    'The test split (10% of the pairs) of every error type, the sentence with the error only. A head "points at" the',
    'attention each token receives from all tokens (--head-query all) or from [CLS] (cls), special tokens left out.',
    SENTENCES_NOTE,
  ],
  build(s, ctx) {
    return {
      generator: layerGenerator('probe-heads', {
        modelId: ctx.model.id,
        openEncoder: ctx.openEncoder,
        types: errorTypesIn(s.errorTypes),
        pairs: s.pairs,
        design: 'pairs',
        sentences: 0,
        text: s.text,
        probes: false,
        heads: true,
        headQuery: s.headQuery,
        examples: 0,
        maxEpochs: 1,
        maxLength: s.maxLength,
        seed: ctx.seed,
      }),
    };
  },
});

/** `textstress probe cloze`: how much a one-token error lowers a masked LM's probability of the tokens near it (Figure 4). */
export const clozeRecipe = defineGenerator({
  name: 'cloze',
  summary:
    "masks each token within six of a one-token grammar error and measures how much the error lowers a masked LM's probability of it (Figure 4)",
  paper: PAPER,
  inspectsModel: true,
  group: 'probe',
  verb: 'cloze',
  data: 'none',
  tasks: ['fill-mask'],
  settings: clozeSettings,
  report: clozeFamily,
  // The pairs setting is per error type: used + left out = pairs × error types (150 × 5 = 750 in the demo, 424 used).
  figures: {
    pairs_used: { label: 'pairs used (one-token errors, all types)', unit: 'count' },
    pairs_skipped: { label: 'pairs left out (not one-token)', unit: 'count' },
    masked_queries: { label: 'masked-token queries', unit: 'count' },
    near_minus_far: { label: 'drop next to the error minus six away', unit: 'points' },
  },
  metrics: {
    near_error_drop: metric(
      'mean drop of P(true token) next to the error (|distance| 1)',
      'near_error_drop',
      { label: 'drop next to the error', unit: 'points' },
      [-1, 1],
    ),
    far_drop: metric('the same drop six tokens away', 'far_drop', { label: 'drop six tokens away', unit: 'points' }, [-1, 1]),
  },
  helpAfter: [
    'Examples:',
    '  textstress probe cloze --model models/demo-mlm --out OUT',
    '  textstress probe cloze --model Xenova/bert-base-uncased --error-types SVA,Vform --window 4 --out OUT',
    '',
    'Minimal pairs whose token sequences differ in exactly one position (word-order swaps and insertions/deletions are',
    'left out and counted); each token within --window of the error is masked in both sentences, one at a time, and',
    'P(true token) compared. Prints the mean drop per error type × signed distance; writes cloze.json. Needs a',
    'masked-LM (fill-mask) folder or hub id. Sentences (--text): by default CoLA dev (acceptable) + SST-2 dev when',
    "../shared/data is beside the package (held out from demo-mlm's training), else the built-in WordNet sentences.",
  ],
  build(s, ctx) {
    return {
      generator: clozeGenerator('cloze', {
        modelId: ctx.model.id,
        openEncoder: ctx.openEncoder,
        types: errorTypesIn(s.errorTypes),
        pairs: s.pairs,
        text: s.text,
        window: s.window,
        maxLength: s.maxLength,
        seed: ctx.seed,
      }),
    };
  },
});
