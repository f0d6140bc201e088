/**
 * A model adapter that opens its model on first use. Runs that read a model's inner layers (the encoder probes) open
 * their own session with the hidden states as outputs, and need of the run's model only what it says about itself:
 * opening it as well would hold a second copy of its weights for nothing (BENCHMARKS.md, "BERT-base at the speed of
 * the hardware": 2.3 GB against 1.0 GB for `probe heads` on a BERT-base model).
 */
import type { ModelAdapter, ModelInfo, ModelInput, ModelOutput } from './types.ts';

/** The adapter `open()` gives, opened at the first predict() or tokenize(); `opened` says whether it was. */
export function lazyModel(info: ModelInfo, open: () => Promise<ModelAdapter>): ModelAdapter & { readonly opened: boolean } {
  let model: Promise<ModelAdapter> | undefined;
  const get = (): Promise<ModelAdapter> => (model ??= open());
  return {
    info,
    concurrency: 1,
    get opened() {
      return model !== undefined;
    },
    async predict(inputs: ModelInput[]): Promise<ModelOutput[]> {
      return (await get()).predict(inputs);
    },
    async tokenize(text: string): Promise<string[]> {
      const m = await get();
      return m.tokenize ? m.tokenize(text) : [];
    },
    async close(): Promise<void> {
      if (model) await (await model.catch(() => undefined))?.close?.();
    },
  };
}
