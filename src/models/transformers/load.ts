/**
 * Loads a model folder (config.json, tokenizer.json, onnx/model.onnx) or a Hugging Face hub id.
 * Every failure the user can cause (missing folder or file, unknown task, download failure) is a ModelError.
 */
import path from 'node:path';
import {
  AutoConfig,
  AutoModelForMaskedLM,
  AutoModelForQuestionAnswering,
  AutoModelForSequenceClassification,
  AutoModelForTokenClassification,
  AutoTokenizer,
  type DeviceType,
  type PreTrainedModel,
  type PreTrainedTokenizer,
} from '@huggingface/transformers';
import { ModelError } from '../../util/errors.ts';
import type { ModelInfo, ModelTask, WordPiece } from '../types.ts';
import { TransformersModel } from './adapter.ts';
import { classificationCodec } from './classify.ts';
import type { CodecContext, TaskCodec } from './codec.ts';
import { checkLocalFolder, detectTask, EXPORT_HINT, isLocalSpec, labelsFrom, modelLengthLimit, readJson } from './folder.ts';
import { registerInternals } from './internals.ts';
import { pieceEncoderFor } from './pieces.ts';
import { qaCodec } from './qa.ts';
import { runOverheadFor } from './batching.ts';
import { dtypeFile, type Dtype } from './dtype.ts';
import { sessionOptionsOf, type OnnxOptions } from './runtime.ts';
import { OnnxSession } from './session.ts';
import { DEFAULT_TAGGING, taggingCodec } from './tag.ts';
import { fillMaskCodec } from './fill-mask.ts';
import { parseTemplate, specialCount } from './template.ts';

/** Options of {@link loadTransformersModel}. */
export interface TransformersModelOptions {
  /** Overrides the task read from config.json `architectures`. */
  task?: ModelTask;
  /** onnxruntime device, e.g. 'cpu' (default) or 'cuda'. */
  device?: DeviceType;
  /**
   * Weight type: which graph file is loaded, by transformers.js's names (fp32 onnx/model.onnx, fp16 model_fp16.onnx,
   * q8 model_quantized.onnx …). Default fp32 for local folders, transformers.js's default for hub ids.
   */
  dtype?: Dtype;
  /** onnxruntime's intra-op threads (default: the physical cores). */
  threads?: number;
  /** Further onnxruntime session settings (graph optimisation, memory arena …); unset ones keep onnxruntime's defaults. */
  onnxOptions?: OnnxOptions;
  /** Rows per ONNX run (default 64). */
  maxBatchSize?: number;
  /** Tokens per ONNX run, rows × padded length (default 4096): long inputs go in smaller runs. */
  maxBatchTokens?: number;
  /** Tokens per row, special tokens included (default: the model's limit, tokenizer_config or config.json). */
  maxLength?: number;
  /** Question answering: spans returned per question (default 3). */
  topK?: number;
  /** Question answering: longest answer, in tokens (default 30). */
  maxAnswerTokens?: number;
  /** Question answering: tokens shared by consecutive windows over a long context (default 128, at most half a window). */
  docStride?: number;
  /** Token classification: the piece of a word its tag is read from (default `first-nonempty`). */
  wordPiece?: WordPiece;
  /** Token classification: encode the first word after a space too (`ĠEU`), as pre-split words (default false). */
  firstWordSpace?: boolean;
}

const DEFAULT_BATCH = 64;
const DEFAULT_BATCH_TOKENS = 4096;

/** What a model says about itself: its id, task and (classifiers, taggers) label names from config.json. */
function infoOf(id: string, task: ModelTask, config: Record<string, unknown>): ModelInfo {
  const labels = task === 'question-answering' || task === 'fill-mask' ? undefined : labelsFrom(config);
  return { id, task, ...(labels ? { labels } : {}) };
}

/**
 * The ModelInfo loadTransformersModel would give a local model folder, read from its config.json without loading the
 * tokenizer or the weights (undefined for a hub id); the same checks, so a missing file fails here as it would there.
 */
export function localModelInfo(idOrPath: string, opts: Pick<TransformersModelOptions, 'task' | 'dtype'> = {}): ModelInfo | undefined {
  if (!isLocalSpec(idOrPath)) return undefined;
  const dir = path.resolve(idOrPath);
  const { config } = checkLocalFolder(dir, opts.dtype);
  return infoOf(dir, detectTask(config, path.join(dir, 'config.json'), opts.task), config);
}

/**
 * Loads an ONNX model with transformers.js from a local folder or a Hugging Face hub id; the task is read from
 * config.json unless given. Throws a ModelError when the config, tokenizer or weights cannot be loaded.
 */
export async function loadTransformersModel(idOrPath: string, opts: TransformersModelOptions = {}): Promise<TransformersModel> {
  const local = isLocalSpec(idOrPath);
  const dir = path.resolve(idOrPath);
  const id = local ? dir : idOrPath;
  let config: Record<string, unknown>;
  let externalData = false;
  if (local) {
    ({ config, externalData } = checkLocalFolder(dir, opts.dtype));
  } else {
    try {
      config = (await AutoConfig.from_pretrained(idOrPath)) as unknown as Record<string, unknown>;
    } catch (err) {
      const why = (err as Error).message.split('\n')[0]!.replace(/[.\s]*$/, '');
      throw new ModelError(`there is no local folder ${dir}, and the Hugging Face hub did not give "${idOrPath}" (${why}).`, {
        cause: err,
        hint: 'Give a model folder (config.json, tokenizer.json, onnx/model.onnx), or check the hub id and your internet connection.',
      });
    }
  }
  const where = local ? path.join(dir, 'config.json') : `the config.json of ${idOrPath}`;
  const task = detectTask(config, where, opts.task);

  const fromOpts = { local_files_only: local };
  let tok: PreTrainedTokenizer;
  try {
    tok = await AutoTokenizer.from_pretrained(id, fromOpts);
  } catch (err) {
    throw new ModelError(`cannot load the tokenizer of ${id}: ${(err as Error).message.split('\n')[0]}`, {
      cause: err,
      hint: 'transformers.js reads tokenizer.json and tokenizer_config.json; re-save them with a fast tokenizer (`tokenizer.save_pretrained(folder)`).',
    });
  }
  const Auto =
    task === 'text-classification'
      ? AutoModelForSequenceClassification
      : task === 'token-classification'
        ? AutoModelForTokenClassification
        : task === 'fill-mask'
          ? AutoModelForMaskedLM
          : AutoModelForQuestionAnswering;
  let model: PreTrainedModel;
  try {
    model = await Auto.from_pretrained(id, {
      ...fromOpts,
      ...(local ? { dtype: opts.dtype ?? 'fp32' } : opts.dtype ? { dtype: opts.dtype } : {}),
      ...(opts.device ? { device: opts.device } : {}),
      ...(externalData ? { use_external_data_format: true } : {}),
      session_options: sessionOptionsOf({ ...opts.onnxOptions, ...(opts.threads !== undefined ? { threads: opts.threads } : {}) }),
    });
  } catch (err) {
    const what = local
      ? path.join(dir, 'onnx', dtypeFile(opts.dtype ?? 'fp32'))
      : `the ${opts.dtype ? `${opts.dtype} ` : ''}ONNX weights of ${idOrPath}`;
    const message = (err as Error).message.split('\n')[0] ?? '';
    // onnxruntime's own words for a file that is not (or no longer) a whole ONNX graph: the file is at fault.
    const damaged = /protobuf|parsing failed|invalid (onnx|model|graph)|not a valid|unexpected end|truncated|corrupt/i.test(message);
    throw new ModelError(`cannot load ${what} as a ${task} model: ${message}`, {
      cause: err,
      hint: damaged
        ? `The file is damaged or not an ONNX model (a partial download or copy, or a Git LFS pointer?): download or export it again. ${EXPORT_HINT}`
        : `config.json says model_type "${String(config.model_type)}"; transformers.js must support that type for ${task}. ${EXPORT_HINT}`,
    });
  }

  const tokJson =
    (tok as unknown as { _tokenizerJSON?: Record<string, unknown> })._tokenizerJSON ??
    (local ? readJson(path.join(dir, 'tokenizer.json'), 'tokenizer') : {});
  const template = parseTemplate(tokJson.post_processor, tok, local ? path.join(dir, 'tokenizer.json') : idOrPath);

  const modelLimit = modelLengthLimit(config, tok.model_max_length);
  const maxLength = opts.maxLength ?? modelLimit;
  if (!Number.isInteger(maxLength) || maxLength > modelLimit) {
    throw new ModelError(`maxLength ${opts.maxLength} does not fit the model ${id}, which takes at most ${modelLimit} tokens.`);
  }
  if (maxLength < specialCount(template.pair) + 4) {
    throw new ModelError(`maxLength ${maxLength} is too small: the model's special tokens alone take ${specialCount(template.pair)}.`);
  }
  const maxBatchSize = opts.maxBatchSize ?? DEFAULT_BATCH;
  if (!Number.isInteger(maxBatchSize) || maxBatchSize < 1)
    throw new ModelError(`maxBatchSize must be a positive integer, got ${opts.maxBatchSize}.`);
  const maxBatchTokens = opts.maxBatchTokens ?? DEFAULT_BATCH_TOKENS;
  if (!Number.isInteger(maxBatchTokens) || maxBatchTokens < 1)
    throw new ModelError(`maxBatchTokens must be a positive integer, got ${opts.maxBatchTokens}.`);

  const padRaw = (tok as unknown as { pad_token_id?: number }).pad_token_id;
  const padId = typeof padRaw === 'number' ? padRaw : typeof config.pad_token_id === 'number' ? config.pad_token_id : 0;
  const info = infoOf(id, task, config);
  const labels = info.labels;

  const pieces = pieceEncoderFor(tok, tokJson);
  const ctx: CodecContext = { id, template, pieces, maxLength, labels: labels ?? [] };
  const codec: TaskCodec<unknown> = (
    task === 'text-classification'
      ? classificationCodec(ctx)
      : task === 'token-classification'
        ? taggingCodec(ctx, {
            wordPiece: opts.wordPiece ?? DEFAULT_TAGGING.wordPiece,
            firstWordSpace: opts.firstWordSpace ?? DEFAULT_TAGGING.firstWordSpace,
          })
        : task === 'fill-mask'
          ? fillMaskCodec(ctx)
          : qaCodec(ctx, { topK: opts.topK ?? 3, maxAnswerTokens: opts.maxAnswerTokens ?? 30, docStride: opts.docStride ?? 128 })
  ) as TaskCodec<unknown>;
  const session = new OnnxSession(model, id, padId);
  const limits = { rows: maxBatchSize, tokens: maxBatchTokens, overhead: runOverheadFor(config, opts.device) };
  const adapter = new TransformersModel(info, limits, tok, session, codec);
  registerInternals(adapter, {
    maxLength,
    usesTokenTypeIds: session.usesTokenTypeIds,
    encode: (input) => codec.plan(input, 0).map(({ row }) => ({ inputIds: row.inputIds, tokenTypeIds: row.tokenTypeIds })),
    forward: (ids, mask, types) => session.forward(ids, mask, types),
  });
  return adapter;
}
