/**
 * Opening a defended model from a config: the annotator it names (gazetteer over the name lists, or a
 * token-classification model) around the inner model. `openAnnotatorModel` opens the NER model (the runner passes
 * its own openModel, so built-in names and URLs work as for --model).
 */
import { gazetteerAnnotator, modelAnnotator } from '../entities/annotate.ts';
import { loadDictionaries } from '../entities/dictionaries.ts';
import type { MentionAnnotator } from '../entities/types.ts';
import type { ModelAdapter } from '../models/types.ts';
import { QueryEngine } from '../query/engine.ts';
import { TextstressError } from '../util/errors.ts';
import type { AnnotatorSpec, ResembleConfig } from './config.ts';
import { resembleModel, type ResembleModel, type ResembleModelOptions } from './resemble.ts';

/** Opens a token-classification model for the annotator. */
export type OpenAnnotatorModel = (spec: string) => Promise<ModelAdapter>;

/** The annotator a config names, and a close() for the model it opened (if any). */
export async function openAnnotator(
  spec: AnnotatorSpec,
  open: OpenAnnotatorModel,
): Promise<{ annotator: MentionAnnotator; close: () => Promise<void> }> {
  const dicts = await loadDictionaries();
  if (spec.kind === 'gazetteer') return { annotator: gazetteerAnnotator(dicts), close: async () => {} };
  const ner = await open(spec.model);
  if (ner.info.task !== 'token-classification') {
    await ner.close?.();
    throw new TextstressError(`the RESEMBLE annotator model ${spec.model} is a ${ner.info.task} model, not token classification.`, {
      hint: 'Name a NER model (e.g. demo-ner), or use { "kind": "gazetteer" }.',
    });
  }
  // Annotations are cached and batched like any other query.
  const engine = new QueryEngine(ner);
  return {
    annotator: modelAnnotator((inputs) => engine.query(inputs), { dicts, name: `model:${spec.model}` }),
    close: async () => ner.close?.(),
  };
}

/** The defended model a config describes; closing it closes the inner model and the annotator's model. */
export async function openResemble(
  inner: ModelAdapter,
  config: ResembleConfig,
  open: OpenAnnotatorModel,
  opts: ResembleModelOptions = {},
): Promise<ResembleModel> {
  const { annotator, close } = await openAnnotator(config.annotator, open);
  const model = resembleModel(inner, config, annotator, opts);
  return Object.assign(model, {
    close: async () => {
      await close();
      await inner.close?.();
    },
  });
}
