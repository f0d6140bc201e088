/**
 * A transformers.js model folder (or hub id) checked up front, so that a missing file, an unknown task or an
 * unreadable config is named instead of failing deep inside the library.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ModelError } from '../../util/errors.ts';
import type { ModelTask } from '../types.ts';
import { dtypeFile, dtypeOfFile, type Dtype } from './dtype.ts';

const HUB_ID = /^[A-Za-z0-9][\w.-]*(\/[\w.-]+)?$/;

const ARCH_TASKS: [RegExp, ModelTask][] = [
  [/ForSequenceClassification$/, 'text-classification'],
  [/ForTokenClassification$/, 'token-classification'],
  [/ForQuestionAnswering$/, 'question-answering'],
  [/ForMaskedLM$/, 'fill-mask'],
];

export const EXPORT_HINT =
  'Export a fine-tuned checkpoint with `optimum-cli export onnx --model <checkpoint> <folder>` ' +
  '(then move model.onnx into <folder>/onnx/), or use a hub model that ships ONNX weights (e.g. the Xenova/* models).';

/** Is `spec` a local folder (existing, or clearly meant as a path) rather than a Hugging Face hub id? */
export function isLocalSpec(spec: string): boolean {
  if (existsSync(spec)) return true;
  if (path.isAbsolute(spec) || spec.startsWith('.') || spec.startsWith('~') || spec.includes('\\')) return true;
  if (spec.split('/').length > 2) return true;
  // `models/nope` has a hub id's shape, but when `models/` is a local folder the user means a path: say it is
  // missing rather than ask the hub (which fails offline with an unrelated "fetch failed").
  if (spec.includes('/') && isFolder(spec.split('/')[0]!)) return true;
  return !HUB_ID.test(spec);
}

function isFolder(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

export function readJson(file: string, what: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ModelError(`cannot read ${what} ${file}: ${(err as Error).message}`, { cause: err });
  }
  try {
    const v: unknown = JSON.parse(text);
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error('it is not a JSON object');
    return v as Record<string, unknown>;
  } catch (err) {
    throw new ModelError(`${what} ${file} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * Checks a local model folder up front, so that a missing file is named instead of failing deep in the library: its
 * config, and the graph file of the weight type asked for (fp32: onnx/model.onnx).
 */
export function checkLocalFolder(
  dir: string,
  dtype: Dtype = 'fp32',
): { config: Record<string, unknown>; modelFile: string; externalData: boolean } {
  if (!existsSync(dir)) {
    const parent = path.dirname(dir);
    const siblings = isFolder(parent)
      ? readdirSync(parent, { withFileTypes: true })
          .filter((d) => d.isDirectory() && existsSync(path.join(parent, d.name, 'config.json')))
          .map((d) => d.name)
      : [];
    const near = siblings.length
      ? ` ${parent} holds the model folders ${siblings.slice(0, 8).join(', ')}${siblings.length > 8 ? ', …' : ''}.`
      : '';
    throw new ModelError(`the model folder ${dir} does not exist.${near}`, {
      hint:
        'Give the folder that holds config.json, tokenizer.json and onnx/model.onnx, or a Hugging Face hub id such as ' +
        'Xenova/distilbert-base-uncased-finetuned-sst-2-english.',
    });
  }
  if (!statSync(dir).isDirectory()) {
    const hint = dir.endsWith('.onnx')
      ? `Give the model folder instead (the one whose onnx/ subfolder holds ${path.basename(dir)}).`
      : 'Give the folder that holds config.json, tokenizer.json and onnx/model.onnx.';
    throw new ModelError(`${dir} is a file, not a model folder.`, { hint });
  }
  const configFile = path.join(dir, 'config.json');
  if (!existsSync(configFile)) {
    const inside = readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, 'config.json')))
      .map((d) => path.join(dir, d.name));
    const hint = inside.length
      ? `It holds model folders itself: did you mean ${inside.slice(0, 3).join(' or ')}?`
      : 'Save it next to the weights (in Python: `model.config.save_pretrained(folder)`). ' + EXPORT_HINT;
    throw new ModelError(`the model folder ${dir} has no config.json, so textstress cannot tell the model type, task or labels.`, {
      hint,
    });
  }
  const config = readJson(configFile, 'model config');
  if (!existsSync(path.join(dir, 'tokenizer.json'))) {
    const has = ['vocab.txt', 'vocab.json', 'sentencepiece.bpe.model', 'spiece.model'].filter((f) => existsSync(path.join(dir, f)));
    const found = has.length ? ` (found ${has.join(', ')}, but ${has.length > 1 ? 'they are' : 'it is'} not enough)` : '';
    throw new ModelError(
      `the model folder ${dir} has no tokenizer.json${found}: transformers.js needs tokenizer.json; vocab.txt alone is not enough.`,
      {
        hint:
          `Export it with Python: \`from transformers import AutoTokenizer; ` +
          `AutoTokenizer.from_pretrained("${dir}").save_pretrained("${dir}")\` (a fast tokenizer writes tokenizer.json), ` +
          `or export the whole model with optimum-cli.`,
      },
    );
  }
  return { config, ...modelFileFor(dir, dtype) };
}

/**
 * The ONNX file a local model folder holds for `dtype`, or a ModelError naming the .onnx files the folder does hold
 * and the --dtype that loads each.
 */
function modelFileFor(dir: string, dtype: Dtype): { modelFile: string; externalData: boolean } {
  const onnxDir = path.join(dir, 'onnx');
  const name = dtypeFile(dtype);
  const modelFile = path.join(onnxDir, name);
  if (existsSync(modelFile)) return { modelFile, externalData: existsSync(`${modelFile}_data`) };
  const present =
    existsSync(onnxDir) && statSync(onnxDir).isDirectory()
      ? readdirSync(onnxDir)
          .filter((f) => f.endsWith('.onnx'))
          .sort()
      : [];
  const loadable = present.filter((f) => dtypeOfFile(f) !== undefined);
  let hint: string;
  if (existsSync(path.join(dir, name))) {
    hint = `Found ${path.join(dir, name)}: transformers.js looks in the onnx/ subfolder, so move it (and any ${name}_data) to ${modelFile}.`;
  } else if (loadable.length) {
    const each = loadable.map((f) => `${f} (--dtype ${dtypeOfFile(f)})`).join(', ');
    hint = `${onnxDir} holds ${each}: pass that --dtype, or add the ${dtype} graph as ${modelFile}.`;
  } else if (present.length) {
    hint = `Found ${present.join(', ')} in ${onnxDir}, none under a name transformers.js loads: name the ${dtype} graph ${name}.`;
  } else {
    hint = EXPORT_HINT;
  }
  const what = dtype === 'fp32' ? 'onnx/model.onnx (the ONNX weights)' : `onnx/${name} (its ${dtype} weights)`;
  throw new ModelError(`the model folder ${dir} has no ${what}.`, { hint });
}

export function detectTask(config: Record<string, unknown>, where: string, asked?: ModelTask): ModelTask {
  const archs = Array.isArray(config.architectures) ? config.architectures.filter((a): a is string => typeof a === 'string') : [];
  let detected: { task: ModelTask; arch: string } | undefined;
  for (const arch of archs) {
    const hit = ARCH_TASKS.find(([re]) => re.test(arch));
    if (hit) {
      detected = { task: hit[1], arch };
      break;
    }
  }
  if (asked) {
    if (detected && detected.task !== asked) {
      throw new ModelError(
        `${where} describes a ${detected.arch}, which is a ${detected.task} model, but the task ${asked} was asked for.`,
        { hint: `Drop the task option or give a ${asked} model.` },
      );
    }
    return asked;
  }
  if (!detected) {
    const list = archs.length ? `architectures [${archs.join(', ')}]` : 'no architectures';
    throw new ModelError(
      `${where} lists ${list}, so textstress cannot tell the task: it needs a *ForSequenceClassification, ` +
        `*ForTokenClassification or *ForQuestionAnswering model.`,
      {
        hint: 'If the model is one of those, pass the task explicitly (--task text-classification | token-classification | question-answering).',
      },
    );
  }
  return detected.task;
}

export function labelsFrom(config: Record<string, unknown>): string[] | undefined {
  const raw = config.id2label;
  if (!raw || typeof raw !== 'object') return undefined;
  const map = raw as Record<string, unknown>;
  const ids = Object.keys(map)
    .map(Number)
    .filter((n) => Number.isInteger(n) && n >= 0);
  if (!ids.length) return undefined;
  const n = Math.max(...ids) + 1;
  return Array.from({ length: n }, (_, i) => {
    const v = map[String(i)];
    return typeof v === 'string' ? v : `LABEL_${i}`;
  });
}

const ROBERTA_LIKE = new Set(['roberta', 'xlm-roberta', 'camembert', 'longformer', 'bart', 'mpnet']);

/** The longest input the model takes (position embeddings and tokenizer limit), or 512 when neither says. */
export function modelLengthLimit(config: Record<string, unknown>, tokenizerMax: number): number {
  const maxPosRaw = typeof config.max_position_embeddings === 'number' ? config.max_position_embeddings : Infinity;
  // RoBERTa-style models reserve two positions for the padding offset.
  const maxPos = ROBERTA_LIKE.has(String(config.model_type)) ? maxPosRaw - 2 : maxPosRaw;
  const tokMax = Number.isFinite(tokenizerMax) && tokenizerMax > 0 ? tokenizerMax : Infinity;
  const limit = Math.min(maxPos, tokMax);
  return Number.isFinite(limit) ? limit : 512;
}
