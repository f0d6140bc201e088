import type { ExampleResult } from '../core/result.ts';
import type { ModelAdapter } from '../models/types.ts';
import { spaceBefore } from '../text/edits.ts';

/**
 * Adds the model tokenizer's view of each edited word (e.g. "inspire" → in ##sp ##ire vs in ##sp ##ird), and for
 * probes that name what each variant put in, how many pieces each of those names makes (the entity paper's
 * Figure 2). Pieces are counted as the model saw them: a word that followed a space is tokenized with it (byte-level
 * BPE makes `Ġoften` of " often" but `of` `ten` of "often"), a word at the start of a text or after another character
 * without. Words repeat across examples and an HTTP model tokenizes remotely, so each string is asked for once.
 */
export function subwordEnricher(model: ModelAdapter): ((r: ExampleResult) => Promise<void>) | undefined {
  const tokenize = model.tokenize?.bind(model);
  if (!tokenize) return undefined;
  const pieces = new Map<string, Promise<string[]>>();
  const piecesOf = (word: string, spaced: boolean): Promise<string[]> => {
    if (!word) return Promise.resolve([]);
    const text = spaced ? ` ${word}` : word;
    let p = pieces.get(text);
    if (!p) {
      if (pieces.size > 100_000) pieces.clear();
      p = tokenize(text);
      pieces.set(text, p);
      p.catch(() => pieces.delete(text));
    }
    return p;
  };
  return async (r) => {
    const spaced = spaceBefore(r.original, r.edits);
    r.subwords = await Promise.all(
      r.edits.map(async (e, k) => ({
        before: e.before,
        after: e.after,
        before_pieces: await piecesOf(e.before, spaced[k]!),
        after_pieces: await piecesOf(e.after, spaced[k]!),
      })),
    );
    // A name as its variant's text held it (`seen`: its case there, and the space before it); older results name it only.
    for (const sample of r.probe?.samples ?? [])
      sample.pieces = await Promise.all(
        sample.names.map(async (n, k) => {
          const seen = sample.seen?.[k];
          return (await (seen === undefined ? piecesOf(n, true) : piecesOf(seen.trimStart(), seen.startsWith(' ')))).length;
        }),
      );
  };
}
