/** Mentions for replacement tests, built by hand from gold tags or from known name strings. */
import { entitySpans } from '../../src/data/entities.ts';
import type { TextField } from '../../src/data/rewrite.ts';
import type { Example, TokenExample } from '../../src/data/types.ts';
import type { NameDictionaries } from '../../src/entities/dictionaries.ts';
import { splitPerson } from '../../src/entities/person.ts';
import type { EntityType, Mention } from '../../src/entities/types.ts';

/** Gold mentions of a token example (PER split into parts). */
export function tagMentions(ex: TokenExample, dicts: NameDictionaries): Mention[] {
  return entitySpans(ex.tags).map((s) => {
    const m: Mention = {
      type: s.type as EntityType,
      field: 'tokens',
      start: s.start,
      end: s.end,
      text: ex.tokens.slice(s.start, s.end).join(' '),
      confidence: 1,
    };
    return s.type === 'PER' ? { ...m, parts: splitPerson(m, dicts) } : m;
  });
}

/** Every occurrence of each name in a text field, as a mention of `type`. */
export function textMentions(
  ex: Example,
  field: TextField,
  type: EntityType,
  names: readonly string[],
  dicts: NameDictionaries,
): Mention[] {
  const text = (ex as unknown as Record<string, string>)[field]!;
  const out: Mention[] = [];
  for (const name of names) {
    for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + name.length)) {
      const m: Mention = { type, field, start: at, end: at + name.length, text: name, confidence: 1 };
      out.push(type === 'PER' ? { ...m, parts: splitPerson(m, dicts) } : m);
    }
  }
  return out;
}
