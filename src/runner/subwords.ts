import type { ExampleResult } from '../attack/result.ts';
import type { ModelAdapter } from '../models/types.ts';

/**
 * Adds the model tokenizer's view of each edited word (e.g. "inspire" → in ##sp ##ire vs in ##sp ##ird), and for
 * probes that name what each variant put in, how many pieces each of those names makes (the entity paper's
 * Figure 2). Words repeat across examples and an HTTP model tokenizes remotely, so each word is asked for once.
 */
export function subwordEnricher(model: ModelAdapter): ((r: ExampleResult) => Promise<void>) | undefined {
  const tokenize = model.tokenize?.bind(model);
  if (!tokenize) return undefined;
  const pieces = new Map<string, Promise<string[]>>();
  const piecesOf = (word: string): Promise<string[]> => {
    if (!word) return Promise.resolve([]);
    let p = pieces.get(word);
    if (!p) {
      if (pieces.size > 100_000) pieces.clear();
      p = tokenize(word);
      pieces.set(word, p);
      p.catch(() => pieces.delete(word));
    }
    return p;
  };
  return async (r) => {
    r.subwords = await Promise.all(
      r.edits.map(async (e) => ({
        before: e.before,
        after: e.after,
        before_pieces: await piecesOf(e.before),
        after_pieces: await piecesOf(e.after),
      })),
    );
    for (const sample of r.probe?.samples ?? [])
      sample.pieces = await Promise.all(sample.names.map(async (n) => (await piecesOf(n)).length));
  };
}
