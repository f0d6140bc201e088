// Issue 34 item 9: a model's identity is what decides its answers, so a copy with notes beside it is the same model.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sameModel } from '../../src/families/stress/qa/identity.ts';
import { decidesAnswers, modelIdentity } from '../../src/util/model-identity.ts';

const scratch = mkdtempSync(join(tmpdir(), 'textstress-identity-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// A model folder's files (small stand-ins: the identity reads bytes, it never loads the model).
const model = join(scratch, 'demo-sst2');
cpSync('models/demo-sst2', model, { recursive: true, filter: (src) => !src.endsWith('.onnx') });
writeFileSync(join(model, 'onnx', 'model.onnx'), 'weights');

/** A copy of the model folder under another name. */
function copy(name: string): string {
  const dir = join(scratch, name);
  cpSync(model, dir, { recursive: true });
  return dir;
}

describe('model identity', () => {
  it('is the same for a renamed copy with notes, metrics and data files added or changed', () => {
    const original = modelIdentity(model);
    const noted = copy('my-sst2');
    writeFileSync(join(noted, 'NOTES.txt'), 'trained on Tuesday\n');
    writeFileSync(join(noted, 'README.md'), 'another readme\n');
    writeFileSync(join(noted, 'metrics.json'), '{"accuracy": 0.5}\n');
    writeFileSync(join(noted, 'heldout.json'), '[]\n');
    const id = modelIdentity(noted);
    expect(id.startsWith('my-sst2#')).toBe(true);
    expect(sameModel(id, original)).toBe(true);
  });

  it('changes when the weights, the config or the tokenizer change', () => {
    const original = modelIdentity(model);
    for (const file of ['onnx/model.onnx', 'config.json', 'tokenizer.json', 'vocab.txt', 'special_tokens_map.json']) {
      const dir = copy(`changed-${file.replace(/\W/g, '-')}`);
      writeFileSync(join(dir, file), ' ', { flag: 'a' });
      expect(sameModel(modelIdentity(dir), original), file).toBe(false);
    }
  });

  it('reads weights, configs and tokenizer files as answer-deciding, nothing else', () => {
    const yes = ['onnx/model.onnx', 'onnx/model.onnx_data', 'onnx/model_quantized.onnx', 'config.json', 'tokenizer.json'];
    const more = ['tokenizer_config.json', 'special_tokens_map.json', 'vocab.txt', 'merges.txt', 'sentencepiece.bpe.model'];
    const no = ['README.md', 'NOTES.txt', 'metrics.json', 'heldout-squad.json', 'LICENSE', 'onnx/README.md', 'data/config.json'];
    expect([...yes, ...more].filter((f) => !decidesAnswers(f))).toEqual([]);
    expect(no.filter(decidesAnswers)).toEqual([]);
  });
});
