/**
 * The standard text format of word vectors (GloVe, counter-fitted PARAGRAM, fastText .vec, word2vec text): one
 * `word v1 … vd` per line, optionally after a word2vec header line `count dim`. Read as a stream, a line at a time:
 * GloVe 840B is 5 GB, and nothing here holds more than one line of it.
 */
import { createReadStream } from 'node:fs';
import { createHash, type Hash } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { DataError } from '../../util/errors.ts';

/** What a streaming read found besides the vectors. */
export interface EmbeddingTextInfo {
  /** Dimensions of every vector. */
  dim: number;
  /** Vectors read (the header's count, when there is one, is checked against it). */
  count: number;
  /** The file had a word2vec `count dim` header line. */
  header: boolean;
  /** SHA-256 of the file's bytes, computed in the same pass. */
  sha256: string;
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const FIELD_SEP = /[ \t]+/;

/**
 * Reads `file` line by line, calling `onVector` with each word, its vector (a buffer reused for the next line: copy
 * what you keep) and its 1-based line number. A malformed line is a DataError naming file:line. Blank lines are
 * skipped. A word may hold spaces (GloVe 840B has a few): the last `dim` fields are the vector, the rest the word.
 */
export async function readEmbeddingText(
  file: string,
  onVector: (word: string, vector: Float32Array, line: number) => void,
): Promise<EmbeddingTextInfo> {
  const hash: Hash = createHash('sha256');
  const decoder = new StringDecoder('utf8');
  let dim = -1;
  let declared: number | undefined;
  let header = false;
  let count = 0;
  let lineNo = 0;
  let vector = new Float32Array(0);

  const onLine = (raw: string): void => {
    lineNo++;
    const line = (lineNo === 1 ? raw.replace(/^\uFEFF/, '') : raw).trimEnd();
    if (line.trim() === '') return;
    const fields = line.trimStart().split(FIELD_SEP);
    if (dim < 0) {
      // word2vec's header: two whole numbers and nothing else ("400000 300").
      if (fields.length === 2 && /^\d+$/.test(fields[0]!) && /^\d+$/.test(fields[1]!)) {
        declared = Number(fields[0]);
        dim = Number(fields[1]);
        header = true;
        if (dim < 1) throw new DataError(file, lineNo, `the header line says ${dim} dimensions.`);
        vector = new Float32Array(dim);
        return;
      }
      dim = fields.length - 1;
      if (dim < 1) throw malformed(file, lineNo, line, 'a word followed by its vector');
      vector = new Float32Array(dim);
    }
    if (fields.length < dim + 1) {
      throw malformed(
        file,
        lineNo,
        line,
        `a word and ${dim} numbers, as the ${header ? 'header says' : 'first vector has'}; found ${fields.length - 1} field(s) after the first`,
      );
    }
    const first = fields.length - dim;
    for (let k = 0; k < dim; k++) {
      const f = fields[first + k]!;
      const x = Number(f);
      if (!NUMBER.test(f) || !Number.isFinite(x)) {
        throw malformed(file, lineNo, line, `numbers after the word; "${clip(f)}" (field ${first + k + 1}) is not a finite number`);
      }
      vector[k] = x;
    }
    count++;
    onVector(fields.slice(0, first).join(' '), vector, lineNo);
  };

  // Pulled a chunk at a time (for await applies backpressure): memory stays at one chunk and one line, however big
  // the file. Lines are split here rather than by readline, whose buffering does not slow the stream down.
  let rest = '';
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    const lines = (rest + decoder.write(chunk)).split('\n');
    rest = lines.pop()!;
    for (const line of lines) onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
  }
  rest += decoder.end();
  if (rest !== '') onLine(rest.endsWith('\r') ? rest.slice(0, -1) : rest);

  if (dim < 0)
    throw new DataError(
      file,
      Math.max(lineNo, 1),
      'the file holds no word vectors.',
      'Give a GloVe-style text file: one "word v1 … vd" per line.',
    );
  if (declared !== undefined && declared !== count) {
    throw new DataError(
      file,
      lineNo,
      `the header line says ${declared} vectors, the file has ${count}.`,
      'A partial download or copy? Fetch the file again, or fix the header line.',
    );
  }
  return { dim, count, header, sha256: hash.digest('hex') };
}

function malformed(file: string, line: number, text: string, expected: string): DataError {
  return new DataError(
    file,
    line,
    `expected ${expected}: "${clip(text, 60)}".`,
    'Word-vector files have one "word v1 … vd" per line (GloVe, counter-fitted vectors), optionally after a word2vec "count dim" line.',
  );
}

const clip = (s: string, n = 24): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
