/**
 * What identifies a model across machines and paths: a model folder is its name and the SHA-256 of the files that
 * decide its answers — the weights, the config and the tokenizer (the same model may sit elsewhere on each machine,
 * be copied and renamed, or carry notes, metrics or data beside it that change nothing it answers); anything else
 * is its id and what it says decides its answers (endpoint, model name, parameters). The queue's fingerprint and
 * the QA transfer sets use it.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';

/**
 * Whether a file of a model folder (its path relative to the folder, `/`-separated) decides the model's answers:
 * the ONNX graph and its external weights (any `.onnx` / `.onnx_data` file: transformers.js picks one by dtype),
 * the model and generation configs, and the tokenizer (tokenizer.json and its config, vocabularies, BPE merges,
 * SentencePiece models, special and added tokens). READMEs, metrics, licences, notes and data files do not.
 */
export function decidesAnswers(file: string): boolean {
  const name = file.slice(file.lastIndexOf('/') + 1).toLowerCase();
  if (/\.onnx(_data)?$/.test(name) || /\.onnx\.data$/.test(name)) return true;
  if (file.includes('/')) return false;
  return (
    /^(config|generation_config|preprocessor_config|tokenizer|tokenizer_config|special_tokens_map|added_tokens)\.json$/.test(name) ||
    /^(vocab\.(txt|json)|merges\.txt)$/.test(name) ||
    /\.(model|spm)$/.test(name)
  );
}

/** The files of a folder, relative and `/`-separated, sorted (so the digest is the same on every platform). */
function filesOf(folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(folder, p).split(sep).join('/'));
    }
  };
  walk(folder);
  return out.sort();
}

/** `<folder name>#<16 hex>` for a model folder, else `<id>#<16 hex>` of the id and its answer-deciding identity. */
export function modelIdentity(id: string, cacheIdentity?: string): string {
  const folder = resolve(id);
  if (existsSync(folder) && statSync(folder).isDirectory()) {
    const hash = createHash('sha256');
    for (const file of filesOf(folder).filter(decidesAnswers)) {
      hash
        .update(file)
        .update('\0')
        .update(readFileSync(join(folder, file)))
        .update('\0');
    }
    return `${basename(folder)}#${hash.digest('hex').slice(0, 16)}`;
  }
  const hash = createHash('sha256')
    .update(id)
    .update('\0')
    .update(cacheIdentity ?? '');
  return `${id}#${hash.digest('hex').slice(0, 16)}`;
}
