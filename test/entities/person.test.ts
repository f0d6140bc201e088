import { beforeAll, describe, expect, it } from 'vitest';
import { loadDictionaries, type NameDictionaries } from '../../src/entities/dictionaries.ts';
import { matchCase, resolveLoneNames, splitPerson } from '../../src/entities/person.ts';
import type { Mention } from '../../src/entities/types.ts';

let dicts: NameDictionaries;
beforeAll(async () => {
  dicts = await loadDictionaries();
});

const textPer = (text: string, at = 0): Mention => ({ type: 'PER', field: 'text', start: at, end: at + text.length, text, confidence: 1 });
const parts = (m: Mention): string[] =>
  splitPerson(m, dicts).map((p) => `${p.role}:${p.text}[${p.start},${p.end})${p.gender ? `(${p.gender})` : ''}`);

describe('splitPerson', () => {
  it('reads one word as a first name only when it is a first name and not a last name', () => {
    expect(parts(textPer('Elena', 5))).toEqual(['first:Elena[5,10)(female)']);
    expect(parts(textPer('Garcia'))).toEqual(['last:Garcia[0,6)']);
    // In both the first-name and the last-name lists: a last name.
    expect(dicts.last).toContain('Carter');
    expect(parts(textPer('Carter'))).toEqual(['last:Carter[0,6)']);
  });

  it('takes the first and the final word of longer names, keeping middle words, initials, titles and suffixes', () => {
    expect(parts({ type: 'PER', field: 'tokens', start: 0, end: 3, text: 'Peter de Vries', confidence: 1 })).toEqual([
      'first:Peter[0,1)(male)',
      'last:Vries[2,3)',
    ]);
    expect(parts(textPer('J. Smith'))).toEqual(['last:Smith[3,8)']);
    expect(parts(textPer('Mr. Hamidi'))).toEqual(['last:Hamidi[4,10)']);
    expect(parts(textPer('Martin Luther King Jr.'))).toEqual(['first:Martin[0,6)(male)', 'last:King[14,18)']);
    expect(parts(textPer('Rep. Darrell Issa'))).toEqual(['first:Darrell[5,12)(male)', 'last:Issa[13,17)']);
  });
});

describe('resolveLoneNames', () => {
  it('reads a lone word as the part it is in a full name of the same example', () => {
    const full = { ...textPer('Cam Newton'), parts: splitPerson(textPer('Cam Newton'), dicts) };
    const lone = { ...textPer('Newton', 40), parts: splitPerson(textPer('Newton', 40), dicts) };
    expect(lone.parts.map((p) => p.role)).toEqual(['first']);
    const [, resolved] = resolveLoneNames([full, lone]);
    expect(resolved!.parts).toEqual([{ role: 'last', start: 40, end: 46, text: 'Newton' }]);
    // Alone, it stays a first name.
    expect(resolveLoneNames([lone])[0]).toBe(lone);
  });
});

describe('matchCase', () => {
  it('keeps capitals, lower case and title case', () => {
    expect([
      matchCase('GARCIA', 'Oak Park'),
      matchCase('garcia', 'Oak Park'),
      matchCase('Garcia', 'Oak Park'),
      matchCase('J', 'Ann'),
    ]).toEqual(['OAK PARK', 'oak park', 'Oak Park', 'Ann']);
  });
});
