/**
 * probe-layers and probe-heads as generators: one step per error type (resumable after each), its record the
 * type's Table 7/8 column and head grid; `finish` gathers the records into the run's details and layers.json.
 */
import type { BuildContext } from '../../recipes/registry/define.ts';
import type { GenerateContext, Generator } from '../../core/generate.ts';
import type { GrammarErrorType } from '../../perturb/grammar/index.ts';
import { probeLayers, type TypeResult } from './domain.ts';
import type { ProbeDesign } from './layer-probe-sentences.ts';
import { defaultPairText, preparer } from './prepare.ts';
import { bestHead, headGrid, headlineIntervals, layerText, layerTable, meanOf, rate, type LayerDetails } from './tables.ts';
import { bestLayerOf } from './layers.ts';

export interface LayerRunOptions {
  modelId: string;
  openEncoder: BuildContext['openEncoder'];
  types: GrammarErrorType[];
  pairs: number;
  /** `sentences`: the paper's design (`sentences` per type); `pairs`: minimal pairs (`pairs` per type). */
  design: ProbeDesign;
  sentences: number;
  text: string[];
  probes: boolean;
  heads: boolean;
  headQuery: 'all' | 'cls';
  examples: number;
  maxEpochs: number;
  maxLength: number;
  seed: number;
}

type State = { done: number };

export function layerGenerator(name: string, o: LayerRunOptions): Generator<State> {
  const prep = preparer({ ...o, defaultText: defaultPairText });
  return {
    name,
    steps: o.types.length,
    init: () => ({ done: 0 }),
    async step(state: State, ctx: GenerateContext) {
      const { encoder, type, sentences } = await prep.step(ctx.step);
      const r = await probeLayers(encoder, sentences, {
        probes: o.probes,
        heads: o.heads,
        headQuery: o.headQuery,
        probe: { maxEpochs: o.maxEpochs },
        seed: o.seed,
        examples: o.examples,
      });
      const t = r.types[0];
      const stats: Record<string, number> = {
        test_sentences: t?.counts.test ?? 0,
        ...(o.design === 'pairs' ? { test_pairs: (t?.counts.test ?? 0) / 2 } : {}),
        extract_seconds: r.extractSeconds,
        train_seconds: r.trainSeconds,
      };
      t?.accuracy?.forEach((s, l) => (stats[`accuracy_l${l}`] = rate(s) ?? Number.NaN));
      t?.localisation?.forEach((s, l) => (stats[`localisation_l${l}`] = rate(s) ?? Number.NaN));
      // Dev-split scores: where the headline's best layer is chosen (never on the test sentences it reports).
      t?.devAccuracy?.forEach((v, l) => (stats[`dev_accuracy_l${l}`] = v));
      t?.devLocalisation?.forEach((v, l) => (stats[`dev_localisation_l${l}`] = v ?? Number.NaN));
      if (t) stats.chance = t.chance;
      const records = t ? [{ type, result: t, examples: r.examples }] : [{ type, result: null, examples: [] }];
      return { state: { done: state.done + 1 }, records, stats };
    },
    measured: (stats) => stats.reduce((a, s) => a + (s.test_sentences ?? 2 * (s.test_pairs ?? 0)), 0),
    summarize(stats) {
      const layers = Math.max(
        -1,
        ...stats.flatMap((s) =>
          Object.keys(s)
            .filter((k) => k.startsWith('accuracy_l'))
            .map((k) => Number(k.slice(10))),
        ),
      );
      const at = (key: string): number | null => meanOf(stats.map((s) => (Number.isFinite(s[key]) ? s[key]! : null)));
      const total = (key: string): number => stats.reduce((a, s) => a + (s[key] ?? 0), 0);
      const metrics: Record<string, number | null> = {
        test_sentences: total('test_sentences'),
        ...(o.design === 'pairs' ? { test_pairs: total('test_pairs') } : {}),
      };
      if (o.probes && layers >= 0) {
        const per = (key: string): (number | null)[] => Array.from({ length: layers + 1 }, (_, l) => at(`${key}_l${l}`));
        const acc = per('accuracy');
        const loc = per('localisation');
        // The best contextual layer by the mean dev score over types; its figure is the test one.
        const best = (test: (number | null)[], dev: (number | null)[]): [number | null, number | null] => {
          const l = bestLayerOf(dev);
          return l > 0 ? [test[l] ?? null, l] : [null, null];
        };
        metrics.layer0_accuracy = acc[0] ?? null;
        [metrics.best_layer_accuracy, metrics.best_accuracy_layer] = best(acc, per('dev_accuracy'));
        metrics.layer0_localisation = loc[0] ?? null;
        [metrics.best_layer_localisation, metrics.best_localisation_layer] = best(loc, per('dev_localisation'));
        metrics.localisation_chance = at('chance');
      }
      return metrics;
    },
    async finish(_state: State, ctx: GenerateContext) {
      const { sentences, encoderDetails } = await prep.get();
      const types: TypeResult[] = [];
      const examples: LayerDetails['examples'] = [];
      for await (const rec of ctx.records()) {
        const r = rec as { result: TypeResult | null; examples: LayerDetails['examples'] };
        if (r.result) types.push(r.result);
        examples.push(...r.examples);
      }
      await prep.close();
      const details: LayerDetails = {
        encoder: encoderDetails,
        sentences,
        types,
        examples,
        headQuery: o.headQuery,
        probes: o.probes,
        ...(o.probes ? { intervals: headlineIntervals(types) } : {}),
      };
      const grid = o.heads ? headGrid(details) : [];
      // The best head is chosen on the dev split's sentences; its share is the test one.
      const best = o.heads ? bestHead(types) : undefined;
      if (best) details.intervals = { ...details.intervals, best_head_localisation: best.interval };
      const files = {
        'layers.json':
          JSON.stringify(
            {
              model: encoderDetails,
              ...(o.probes ? { table7: layerTable(details, 'accuracy'), table8: layerTable(details, 'localisation') } : {}),
              ...(o.heads ? { heads: { head_query: o.headQuery, share: grid } } : {}),
              types,
            },
            null,
            2,
          ) + '\n',
      };
      return {
        details: details as unknown as Record<string, unknown>,
        ...(o.heads ? { metrics: { best_head_localisation: best?.interval.value ?? null } } : {}),
        files,
      };
    },
    text: (summary) => {
      const d = summary.details as unknown as LayerDetails | undefined;
      return d ? layerText(d) : JSON.stringify(summary.metrics);
    },
  };
}
