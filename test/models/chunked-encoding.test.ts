import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AutoTokenizer } from '@huggingface/transformers';
import { describe, expect, it } from 'vitest';
import { loadTransformersModel, splitsOnSpaces, transformersInternals } from '../../src/models/transformers/index.ts';
import { TYPO_SOURCE_NAMES, typoCandidates } from '../../src/perturb/index.ts';
import { WordSeq } from '../../src/text/word-seq.ts';
import { Rng } from '../../src/util/rng.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const MODEL = join(ROOT, 'models', 'demo-sst2');

describe('chunk-cached WordPiece encoding', () => {
  it('is used only for tokenizers where chunking cannot change the ids', () => {
    const bert = JSON.parse(readFileSync(join(MODEL, 'tokenizer.json'), 'utf8')) as Record<string, unknown>;
    expect(splitsOnSpaces(bert)).toBe(true);
    expect(splitsOnSpaces({ ...bert, model: { type: 'BPE' } })).toBe(false);
    expect(splitsOnSpaces({ ...bert, pre_tokenizer: { type: 'ByteLevel' } })).toBe(false);
    expect(splitsOnSpaces({ ...bert, normalizer: { type: 'Replace' } })).toBe(false);
  });

  it('gives exactly the tokenizer’s own ids on SST-2 dev, typo variants and awkward text', async () => {
    const model = await loadTransformersModel(MODEL);
    const tok = await AutoTokenizer.from_pretrained(MODEL, { local_files_only: true });
    const sentences = readFileSync(join(ROOT, 'test', 'fixtures', 'data', 'sst2', 'dev.tsv'), 'utf8')
      .split('\n')
      .slice(1, 300)
      .map((l) => l.split('\t')[0]!)
      .filter(Boolean);
    const texts = [
      ...sentences,
      'Ça  coûte\tcher —  naïve   café\u00a0crème 🎬 電影 !!',
      '  leading and trailing spaces  ',
      'control\u0007char and zero\u200bwidth',
      "it 's a 0h-so gr8 film ... really ?!",
    ];
    const rng = new Rng(1);
    for (const s of sentences.slice(0, 60)) {
      const seq = WordSeq.parse(s);
      for (let i = 0; i < seq.length; i += 3) {
        for (const c of typoCandidates(seq, i, TYPO_SOURCE_NAMES, rng)) texts.push(seq.replace(i, c.after).toString());
      }
    }
    expect(texts.length).toBeGreaterThan(1000);
    for (const text of texts) {
      const ours = transformersInternals(model).encode({ kind: 'text', text })[0]!.inputIds;
      const theirs = tok.encode(text);
      expect(ours, text).toEqual(theirs);
    }
    await model.close();
  });
});
