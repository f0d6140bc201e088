/**
 * Opening a transformers.js model that answers no attack queries but serves one (a sentence encoder for a similarity
 * constraint, a masked LM for word candidates): a local folder or a hub id, its tokenizer and its ONNX graph, with
 * every failure the user can cause as a ModelError naming the folder or id.
 */
import path from 'node:path';
import { AutoConfig, AutoTokenizer, type PreTrainedModel, type PreTrainedTokenizer } from '@huggingface/transformers';
import { ModelError } from '../../util/errors.ts';
import { checkLocalFolder, EXPORT_HINT, isLocalSpec } from '../transformers/folder.ts';

/** A loaded helper model. */
export interface Pretrained {
  /** The folder (absolute) or hub id. */
  id: string;
  config: Record<string, unknown>;
  tok: PreTrainedTokenizer;
  model: PreTrainedModel;
}

interface AutoLoader {
  from_pretrained(id: string, opts: Record<string, unknown>): Promise<PreTrainedModel>;
}

/** Opens `spec` (folder or hub id) with a transformers.js Auto class; `what` names its role in errors. */
export async function openPretrained(spec: string, auto: AutoLoader, what: string): Promise<Pretrained> {
  const local = isLocalSpec(spec);
  const id = local ? path.resolve(spec) : spec;
  let config: Record<string, unknown>;
  let externalData = false;
  if (local) {
    ({ config, externalData } = checkLocalFolder(id));
  } else {
    try {
      config = (await AutoConfig.from_pretrained(spec)) as unknown as Record<string, unknown>;
    } catch (err) {
      throw new ModelError(`cannot load the ${what} "${spec}" from the Hugging Face hub: ${(err as Error).message.split('\n')[0]}`, {
        cause: err,
        hint: 'Give a model folder (config.json, tokenizer.json, onnx/model.onnx), or check the hub id and your internet connection.',
      });
    }
  }
  let tok: PreTrainedTokenizer;
  try {
    tok = await AutoTokenizer.from_pretrained(id, { local_files_only: local });
  } catch (err) {
    throw new ModelError(`cannot load the tokenizer of the ${what} ${id}: ${(err as Error).message.split('\n')[0]}`, { cause: err });
  }
  let model: PreTrainedModel;
  try {
    model = await auto.from_pretrained(id, {
      local_files_only: local,
      ...(local ? { dtype: 'fp32' } : {}),
      ...(externalData ? { use_external_data_format: true } : {}),
    });
  } catch (err) {
    throw new ModelError(`cannot load the ${what} ${id}: ${(err as Error).message.split('\n')[0]}`, { cause: err, hint: EXPORT_HINT });
  }
  return { id, config, tok, model };
}

/** The graph's outputs for a batch of texts, padded and truncated to the model's limit. */
export async function runTexts(
  p: Pretrained,
  texts: readonly string[],
  what: string,
): Promise<{ outputs: Record<string, { data: Float32Array; dims: number[] }>; ids: number[][]; mask: number[][] }> {
  const enc = p.tok(texts as string[], { padding: true, truncation: true }) as unknown as Record<
    string,
    { tolist(): (number | bigint)[][] }
  >;
  let outputs: Record<string, { data: Float32Array; dims: number[] }>;
  try {
    outputs = (await (p.model as unknown as (x: unknown) => Promise<unknown>)(enc)) as typeof outputs;
  } catch (err) {
    throw new ModelError(`the ${what} ${p.id} failed while running: ${(err as Error).message.split('\n')[0]}`, { cause: err });
  }
  const list = (name: string): number[][] => (enc[name]?.tolist() ?? []).map((row) => row.map(Number));
  return { outputs, ids: list('input_ids'), mask: list('attention_mask') };
}
