/**
 * Opening a defended model from a config: the annotator it names (gazetteer over the name lists, or a
 * token-classification model) around the inner model. `openAnnotatorModel` opens the NER model (the runner passes
 * its own openModel, so built-in names and URLs work as for --model).
 */
import { gazetteerAnnotator, modelAnnotator } from '../entities/annotate.ts';
import { loadDictionaries } from '../entities/dictionaries.ts';
import type { MentionAnnotator } from '../entities/types.ts';
import type { ModelAdapter } from '../models/types.ts';
import { isHttpSpec, isOpenAiSpec } from '../models/load.ts';
import { QueryEngine } from '../query/engine.ts';
import { TextstressError } from '../util/errors.ts';
import type { AnnotatorSpec, ResembleConfig } from './config.ts';
import { resembleModel, type ResembleModel, type ResembleModelOptions } from './resemble.ts';
import { terminalSafe } from '../util/terminal.ts';

/** Opens a token-classification model for the annotator. */
export type OpenAnnotatorModel = (spec: string) => Promise<ModelAdapter>;

/** Where a config's annotator may send texts: the config file (for messages) and the URLs the command line allowed. */
export interface RemotePolicy {
  /** The config file the spec came from. */
  config: string;
  /** --allow-remote: URLs (or openai:<model> specs) the user named. */
  allowRemote?: readonly string[];
  /** Where the "texts go to …" line goes; default stderr. */
  notice?: (line: string) => void;
}

/** A URL compared as the user would: scheme and host lower-cased, no trailing slash. */
function sameDestination(a: string, b: string): boolean {
  const norm = (s: string): string => {
    const t = s.trim();
    try {
      const u = new URL(t);
      return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}${u.search}`;
    } catch {
      return t.replace(/\/+$/, '');
    }
  };
  return norm(a) === norm(b);
}

/**
 * Refuses an annotator model that sends texts off this machine (an http(s):// endpoint or openai:) unless the
 * command line named it with --allow-remote: a config file alone must never decide where the user's data goes.
 * When allowed, says where the texts go.
 */
export function checkAnnotatorDestination(spec: AnnotatorSpec, policy: RemotePolicy): void {
  if (spec.kind !== 'model' || !(isHttpSpec(spec.model) || isOpenAiSpec(spec.model))) return;
  const allowed = (policy.allowRemote ?? []).some((a) => sameDestination(a, spec.model));
  if (!allowed) {
    throw new TextstressError(
      `the RESEMBLE config ${policy.config} names the annotator model ${spec.model}, which would receive every text the ` +
        'defence annotates; a config file may not send data anywhere the command line did not name.',
      {
        where: policy.config,
        hint:
          `If you trust that endpoint, add --allow-remote ${spec.model}; otherwise use a local NER model (e.g. demo-ner) ` +
          'or { "kind": "gazetteer" } in the config.',
      },
    );
  }
  (policy.notice ?? ((line) => process.stderr.write(`textstress: ${terminalSafe(line)}\n`)))(
    `the RESEMBLE annotator (${policy.config}) sends the texts it annotates to ${spec.model} (allowed by --allow-remote)`,
  );
}

/** The annotator a config names, and a close() for the model it opened (if any); `policy`: see {@link checkAnnotatorDestination}. */
export async function openAnnotator(
  spec: AnnotatorSpec,
  open: OpenAnnotatorModel,
  policy?: RemotePolicy,
): Promise<{ annotator: MentionAnnotator; close: () => Promise<void> }> {
  if (policy) checkAnnotatorDestination(spec, policy);
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
  policy?: RemotePolicy,
): Promise<ResembleModel> {
  const { annotator, close } = await openAnnotator(config.annotator, open, policy);
  const model = resembleModel(inner, config, annotator, opts);
  return Object.assign(model, {
    close: async () => {
      await close();
      await inner.close?.();
    },
  });
}
