/**
 * CheckList's invariance edits (Ribeiro et al. 2020), as TextAttack's checklist_ribeiro_2020.py composes them, in
 * its order: expand a contraction, contract an expansion, change a person's first or last name, change a number,
 * change a location. Names, places and numbers are found once per example, in its original text (`prepare`): names
 * and places by the name lists' gazetteer (src/entities; TextAttack asks flair's NER model), numbers by their digits
 * or number words. Each found mention offers `n` random replacements of its kind each time it is asked, as
 * TextAttack's `np.random.choice` does.
 */
import { currentIndexOf, originOf, type AttackState } from '../../core/state.ts';
import type { AttackSubject } from '../../core/subject.ts';
import { composite, type Transformation } from '../../core/transformation.ts';
import { gazetteerAnnotator } from '../../entities/annotate.ts';
import { allFirstNames, loadDictionaries, type NameDictionaries } from '../../entities/dictionaries.ts';
import { matchCase } from '../../entities/person.ts';
import type { Mention } from '../../entities/types.ts';
import { contract, expand } from '../../perturb/classic/contractions.ts';
import { alterNumber, isNumberWord, numberInWords, parseNumberWords } from '../../perturb/classic/numbers.ts';
import type { WordCandidate } from '../../text/edits.ts';
import type { WordSeq } from '../../text/word-seq.ts';
import type { Rng } from '../../util/rng.ts';

/** What a found mention is replaced by. */
export type FoundKind = 'first' | 'last' | 'country' | 'city' | 'nationality' | 'digits' | 'number-words';

/** A name, place or number of the original text: words [start, start + span) of the original field. */
export interface Found {
  kind: FoundKind;
  start: number;
  span: number;
  text: string;
  /** Numbers: the value. */
  value?: number;
}

/** How many replacements each mention offers, and how far a number may move (TextAttack: 3 and 1, i.e. ±100%). */
export interface ChecklistOptions {
  n: number;
  maxChange: number;
}

const isDigits = (w: string): boolean => /^\d+$/.test(w);

/** The numbers of a text: digit words, and runs of number words ("twenty five", "one hundred and five"). */
export function findNumbers(seq: WordSeq): Found[] {
  const out: Found[] = [];
  const w = seq.words;
  for (let i = 0; i < w.length; i++) {
    if (isDigits(w[i]!)) {
      out.push({ kind: 'digits', start: i, span: 1, text: w[i]!, value: Number(w[i]) });
      continue;
    }
    if (!isNumberWord(w[i]!)) continue;
    let j = i + 1;
    // "and" joins number words ("one hundred and five"), only between them, and only across a plain space.
    while (
      j < w.length &&
      seq.gaps[j] === ' ' &&
      (isNumberWord(w[j]!) || (w[j]!.toLowerCase() === 'and' && j + 1 < w.length && isNumberWord(w[j + 1]!)))
    )
      j++;
    const value = parseNumberWords(w.slice(i, j));
    if (value !== undefined) out.push({ kind: 'number-words', start: i, span: j - i, text: w.slice(i, j).join(' '), value });
    i = j - 1;
  }
  return out;
}

/** Names and places of the field's text, as word spans of `seq`, from gazetteer mentions (character offsets). */
export function namesAndPlaces(seq: WordSeq, mentions: readonly Mention[]): Found[] {
  const at = new Map<number, number>();
  const ends = new Map<number, number>();
  seq.words.forEach((w, i) => {
    at.set(seq.offsetOf(i), i);
    ends.set(seq.offsetOf(i) + w.length, i);
  });
  const span = (start: number, end: number): { start: number; span: number } | undefined => {
    const a = at.get(start);
    const b = ends.get(end);
    return a === undefined || b === undefined || b < a ? undefined : { start: a, span: b - a + 1 };
  };
  const out: Found[] = [];
  for (const m of mentions) {
    if (m.type === 'PER') {
      for (const p of m.parts ?? []) {
        const s = span(p.start, p.end);
        if (s) out.push({ kind: p.role, ...s, text: p.text });
      }
    } else if (m.type === 'LOC' || m.type === 'MISC') {
      const s = span(m.start, m.end);
      const kind: FoundKind = m.type === 'MISC' ? 'nationality' : m.subtype === 'country' ? 'country' : 'city';
      if (s) out.push({ kind, ...s, text: m.text });
    }
  }
  return out;
}

/** Where a found span is now, when all its words are still there, in order and next to each other. */
function currentSpan(state: AttackState, f: Found): number | undefined {
  const i = currentIndexOf(state, f.start);
  if (i < 0) return undefined;
  for (let k = 1; k < f.span; k++) if (originOf(state, i + k) !== f.start + k) return undefined;
  return i;
}

/** A transformation proposing replacements for found spans that start at the asked positions. */
function replacing(name: string, found: readonly Found[], replacements: (f: Found, rng: Rng) => string[]): Transformation {
  return {
    name,
    candidates(state, indices, rng) {
      const asked = new Set(indices);
      const out: WordCandidate[] = [];
      for (const f of found) {
        const i = currentSpan(state, f);
        if (i === undefined || !asked.has(i)) continue;
        for (const after of replacements(f, rng)) {
          if (after === f.text) continue;
          out.push({
            wordIndex: i,
            after,
            type: `checklist:${f.kind === 'first' || f.kind === 'last' ? 'name' : f.kind === 'digits' || f.kind === 'number-words' ? 'number' : 'location'}`,
            ...(f.span > 1 ? { span: f.span } : {}),
          });
        }
      }
      return out;
    },
  };
}

/** Draws `n` of a list with replacement (numpy's choice), in the case of the original. */
const draw = (list: readonly string[], n: number, rng: Rng, like: string): string[] =>
  list.length ? Array.from({ length: n }, () => matchCase(like, list[rng.int(list.length)]!)) : [];

/** "don't" → "do not", at every asked word (TextAttack's WordSwapExtend). */
export const extendContractions: Transformation = {
  name: 'expand',
  candidates: (state, indices) =>
    indices.flatMap((i) => {
      const after = expand(state.seq.words[i]!);
      return after === undefined ? [] : [{ wordIndex: i, after, type: 'checklist:expand' }];
    }),
};

/** "do not" → "don't", where the asked word starts an expansion (TextAttack's WordSwapContract). */
export const contractExpansions: Transformation = {
  name: 'contract',
  candidates: (state, indices) =>
    indices.flatMap((i) => {
      const c = contract(state.seq.words, i);
      return c ? [{ wordIndex: i, after: c.after, type: 'checklist:contract', span: c.span }] : [];
    }),
};

/**
 * CheckList's edits composed (see the file comment): contractions are found in the text as it is; names, places and
 * numbers in the original, by `prepare`, which the attack calls once per example.
 */
export function checklistTransformation(opts: ChecklistOptions, dictionaries?: () => Promise<NameDictionaries>): Transformation {
  let dicts: Promise<NameDictionaries> | undefined;
  const loadDicts = (): Promise<NameDictionaries> => (dicts ??= dictionaries ? dictionaries() : loadDictionaries());
  const unprepared = (): never => {
    throw new Error('the CheckList name, number and location edits are found per example: call prepare() first');
  };
  const perExample: Transformation = {
    name: 'names-numbers-locations',
    candidates: unprepared,
    async prepare(subject: AttackSubject): Promise<Transformation> {
      const d = await loadDicts();
      const seq = subject.original;
      const [mentions] = await gazetteerAnnotator(d).annotate([{ kind: 'text', id: subject.example.id, text: seq.toString(), label: '' }]);
      const places = namesAndPlaces(seq, mentions ?? []);
      const first = allFirstNames(d);
      const lists: Record<'last' | 'country' | 'city' | 'nationality', readonly string[]> = {
        last: d.last,
        country: d.country,
        city: d.city,
        nationality: d.misc,
      };
      const names = replacing(
        'names',
        places.filter((f) => f.kind === 'first' || f.kind === 'last'),
        (f, rng) => draw(f.kind === 'first' ? first : lists.last, opts.n, rng, f.text),
      );
      const numbers = replacing('numbers', findNumbers(seq), (f, rng) =>
        alterNumber(f.value!, rng, opts.n, opts.maxChange).map((x) =>
          f.kind === 'digits' ? String(x) : matchCase(f.text, numberInWords(x)),
        ),
      );
      const locations = replacing(
        'locations',
        places.filter((f) => f.kind === 'country' || f.kind === 'city' || f.kind === 'nationality'),
        (f, rng) => draw(lists[f.kind as 'country' | 'city' | 'nationality'], opts.n, rng, f.text),
      );
      return composite('names-numbers-locations', [names, numbers, locations]);
    },
  };
  return composite('checklist', [extendContractions, contractExpansions, perExample]);
}
