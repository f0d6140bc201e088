/**
 * SQuAD v1.1 JSON (also the adversarial SQuAD files of Jia & Liang 2017, which share the format).
 * JSON has to be parsed whole; one QaExample per question, id = the question id.
 */
import { readFile } from 'node:fs/promises';
import { DataError, TextstressError } from '../util/errors.ts';
import { checkFile, checkText, makeDataset, maxCharsOf, rejectSplit, rowError, stripText, type RowItem } from './rows.ts';
import type { Dataset, DatasetInfo, LoadOptions, QaAnswer, QaExample } from './types.ts';

/** A position in a text file. */
export interface TextLocation {
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

/** 1-based line and column of a UTF-16 offset in `text`. */
export function locationOf(text: string, offset: number): TextLocation {
  const pos = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < pos; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: pos - lineStart + 1 };
}

/** V8 quotes this many characters either side of the offending token in "Unexpected token" messages. */
const V8_CONTEXT = 10;

/**
 * Where a `JSON.parse` error points in `text`: from "line L column C" when the engine gives it, else
 * from "at position N" (Node 20). V8's "Unexpected token 'x', …"snippet"… is not valid JSON" has no
 * position, so the snippet (up to 10 characters either side of the token) is found in the text.
 * "Unexpected end of JSON input" points at the end of the text; anything else at its start.
 */
export function jsonErrorLocation(message: string, text: string): TextLocation {
  const lc = /line (\d+) column (\d+)/i.exec(message);
  if (lc) return { line: Number(lc[1]), column: Number(lc[2]) };
  const pos = /at position (\d+)/i.exec(message);
  if (pos) return locationOf(text, Number(pos[1]));
  const tok = /Unexpected token '(.+?)', (\.\.\.)?"([\s\S]*)"(\.\.\.)? is not valid JSON/.exec(message);
  if (tok) {
    const token = tok[1]!;
    const snippet = tok[3]!;
    const before = tok[2] !== undefined;
    const after = tok[4] !== undefined;
    const at = (p: number): boolean => p >= 0 && text.startsWith(token, p);
    let p = -1;
    if (!before && after) p = snippet.length - V8_CONTEXT;
    else if (before && !after) p = text.length - snippet.length + V8_CONTEXT;
    else if (before && after) {
      for (let i = text.indexOf(snippet); i !== -1; i = text.indexOf(snippet, i + 1)) {
        if (at(i + V8_CONTEXT)) {
          p = i + V8_CONTEXT;
          break;
        }
      }
    }
    if (!before && !after && snippet === text) {
      // A short text is quoted whole: the token is where a valid-so-far prefix breaks.
      const endErr = (t: string): boolean => {
        try {
          JSON.parse(t);
          return false;
        } catch (err) {
          return /end of (JSON )?input/i.test((err as Error).message);
        }
      };
      for (let i = text.indexOf(token); i !== -1; i = text.indexOf(token, i + 1)) {
        if (endErr(text.slice(0, i)) && !endErr(text.slice(0, i + token.length))) {
          p = i;
          break;
        }
      }
    }
    if (!at(p)) {
      // an engine with other context rules: the first place the token occurs in the snippet
      const i = before || after ? text.indexOf(snippet) : -1;
      p = i >= 0 ? text.indexOf(token, i) : text.indexOf(token);
    }
    if (p >= 0) return locationOf(text, p);
  }
  if (/end of (JSON )?input/i.test(message)) return locationOf(text, text.length);
  return { line: 1, column: 1 };
}

/**
 * Reads and parses a whole JSON file. A syntax error becomes a DataError naming the file and the line
 * (and column) where the parser stopped. Returns the parsed value and the text (BOM removed).
 */
export async function readJsonFile(path: string): Promise<{ value: unknown; text: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new TextstressError(`cannot read the dataset file (${(err as Error).message}).`, { where: path, cause: err });
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return { value: JSON.parse(text), text };
  } catch (err) {
    const msg = (err as Error).message;
    const loc = jsonErrorLocation(msg, text);
    throw new DataError(path, loc.line, `invalid JSON at column ${loc.column}: ${msg}.`, 'The whole file must be valid JSON.');
  }
}

/**
 * A QA context and its answers without white space at their ends, like every text the loaders read (checkText):
 * the answers' offsets move back by the context's leading white space, and an answer's own surrounding white space
 * (no SQuAD v1.1 answer has any; the official evaluation ignores it) is dropped with its start moved past it. The
 * answers must match the raw context at their offsets; they then match the stripped one at theirs. `empty(k)`
 * throws for answer k when it is white space only.
 */
export function stripQa(
  context: string,
  answers: readonly QaAnswer[],
  empty: (k: number) => never,
): { context: string; answers: QaAnswer[] } {
  const stripped = stripText(context);
  const lead = stripped === '' ? 0 : context.indexOf(stripped);
  return {
    context: stripped,
    answers: answers.map((a, k) => {
      const text = stripText(a.text);
      if (text === '') return empty(k);
      return { text, start: a.start + a.text.indexOf(text) - lead };
    }),
  };
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * SQuAD v1.1 (`{ data: [{ title, paragraphs: [{ context, qas: [{ id, question, answers: [{ text,
 * answer_start }] }] }] }] }`). Every answer's text must match the context at its offset. `source` gives
 * the line of the question's id in the file.
 */
export async function loadSquad(path: string, opts: LoadOptions & { split?: string } = {}): Promise<Dataset<QaExample>> {
  checkFile(path);
  rejectSplit('squad', path, opts.split);
  const maxChars = maxCharsOf(opts);
  const { value: doc, text } = await readJsonFile(path);
  if (!isObj(doc) || !Array.isArray(doc.data)) {
    throw new DataError(
      path,
      1,
      'expected SQuAD JSON: an object with a "data" array of articles.',
      'If the file is in another format, pass it explicitly with --format.',
    );
  }
  const data = doc.data as unknown[];
  const info: DatasetInfo = { name: 'squad', path, kind: 'qa' };

  return makeDataset<QaExample>(info, opts, function* (): Iterable<RowItem<QaExample>> {
    // Line tracking: ids appear in document order, so search forward from the last hit.
    let cursor = 0;
    let cursorLine = 1;
    const lineOfNeedle = (needle: string): number => {
      const at = text.indexOf(needle, cursor);
      if (at === -1) return cursorLine;
      for (let i = text.indexOf('\n', cursor); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) cursorLine++;
      cursor = at;
      return cursorLine;
    };
    const where = (a: number, p?: number, q?: number): string =>
      `data[${a}]` + (p === undefined ? '' : `.paragraphs[${p}]`) + (q === undefined ? '' : `.qas[${q}]`);

    for (let a = 0; a < data.length; a++) {
      const art = data[a];
      if (!isObj(art) || !Array.isArray(art.paragraphs)) {
        const line = cursorLine;
        yield {
          line,
          build: () => {
            throw rowError(path, line, `${where(a)} is not an article with a "paragraphs" array.`);
          },
        };
        continue;
      }
      const title = typeof art.title === 'string' ? art.title : undefined;
      const paragraphs = art.paragraphs as unknown[];
      for (let p = 0; p < paragraphs.length; p++) {
        const par = paragraphs[p];
        if (!isObj(par) || typeof par.context !== 'string' || !Array.isArray(par.qas)) {
          const line = cursorLine;
          yield {
            line,
            build: () => {
              throw rowError(path, line, `${where(a, p)} is not a paragraph with a "context" string and a "qas" array.`);
            },
          };
          continue;
        }
        const context = par.context;
        const qas = par.qas as unknown[];
        for (let q = 0; q < qas.length; q++) {
          const qa = qas[q];
          const rawId = isObj(qa) ? qa.id : undefined;
          const idOk = typeof rawId === 'string' || typeof rawId === 'number';
          const line = idOk ? lineOfNeedle(JSON.stringify(rawId)) : cursorLine;
          yield {
            line,
            build: () => {
              const at = where(a, p, q);
              if (!isObj(qa)) throw rowError(path, line, `${at} is not an object.`);
              if (!idOk || String(rawId).trim() === '') throw rowError(path, line, `${at} has no "id".`);
              if (typeof qa.question !== 'string') throw rowError(path, line, `question ${String(rawId)} has no "question" string.`);
              const field = (name: string): string => `"${name}" of question ${String(rawId)}`;
              checkText(path, line, field('context'), context, maxChars);
              const question = checkText(path, line, field('question'), qa.question, maxChars);
              if (!Array.isArray(qa.answers) || qa.answers.length === 0) {
                throw rowError(
                  path,
                  line,
                  `question ${String(rawId)} has no answers (unanswerable SQuAD 2.0 questions are not supported).`,
                );
              }
              const answers: QaAnswer[] = (qa.answers as unknown[]).map((ans, k) => {
                const start = isObj(ans) ? ans.answer_start : undefined;
                if (!isObj(ans) || typeof ans.text !== 'string' || typeof start !== 'number' || !Number.isInteger(start) || start < 0) {
                  throw rowError(
                    path,
                    line,
                    `answer ${k + 1} of question ${String(rawId)} needs a "text" string and a non-negative integer "answer_start".`,
                  );
                }
                const found = context.slice(start, start + ans.text.length);
                if (found !== ans.text) {
                  throw rowError(
                    path,
                    line,
                    `answer ${k + 1} of question ${String(rawId)} is ${JSON.stringify(ans.text)} but the context at answer_start ` +
                      `${start} reads ${JSON.stringify(found)}.`,
                  );
                }
                return { text: ans.text, start };
              });
              const stripped = stripQa(context, answers, (k) => {
                throw rowError(path, line, `answer ${k + 1} of question ${String(rawId)} is empty (white space only).`);
              });
              return {
                kind: 'qa',
                id: String(rawId),
                source: `${path}:${line}`,
                question,
                ...stripped,
                ...(title !== undefined ? { title } : {}),
              };
            },
          };
        }
      }
    }
  });
}
