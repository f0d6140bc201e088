import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { genderOf, isFirstName, loadDictionaries, normaliseList } from '../../src/entities/dictionaries.ts';
import { TextstressError } from '../../src/util/errors.ts';

describe('loadDictionaries (package lists)', () => {
  it('reads every list from its package, sorted and de-duplicated', async () => {
    const d = await loadDictionaries();
    const sizes = {
      female: d.first.female.length,
      male: d.first.male.length,
      unknown: d.first.unknown.length,
      last: d.last.length,
      org: d.org.length,
      country: d.country.length,
      city: d.city.length,
      misc: d.misc.length,
    };
    expect(sizes).toEqual({ female: 4525, male: 3478, unknown: 419, last: 473, org: 1171, country: 259, city: 927, misc: 127 });
    for (const list of [d.first.female, d.first.male, d.first.unknown, d.last, d.org, d.country, d.city, d.misc]) {
      expect(list).toEqual(normaliseList(list));
    }
    expect(d.countryAliases).toEqual(['U.S.', 'U.S.A.', 'UAE', 'UK', 'US', 'USA']);
    // Loaded once: the same lists come back.
    expect(await loadDictionaries()).toBe(d);
  });

  it('keeps company names and drops tickers, acronyms, ordinary words and places', async () => {
    const { org, country, misc, city } = await loadDictionaries();
    for (const name of ['Accenture', 'Hewlett-Packard', 'Siemens', 'Symantec', 'ABBYY']) expect(org).toContain(name);
    for (const dropped of ['AAPL', 'ABB', 'A', '3M', 'Gold', 'Air', 'university', 'Toronto']) expect(org).not.toContain(dropped);
    expect(country).toContain('France');
    expect(country).toContain('United States of America');
    expect(country.filter((c) => /[,()]/.test(c))).toEqual([]);
    expect(misc).toContain('German');
    expect(city).toContain('Akron');
  });

  it('gives a first name the gender of the list it is only in', async () => {
    const d = await loadDictionaries();
    expect([genderOf('John'), genderOf('MARY'), genderOf('Leslie'), genderOf('Xqzt')]).toEqual(['male', 'female', 'unknown', 'unknown']);
    expect(d.first.unknown).toContain('Leslie');
    expect(d.first.female).not.toContain('Leslie');
    expect(isFirstName('elena')).toBe(true);
    expect(isFirstName('Garcia')).toBe(false);
  });
});

describe('loadDictionaries (user lists)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'textstress-names-'));

  it('replaces a list with a file and removes excluded names case-insensitively', async () => {
    const file = join(dir, 'org.txt');
    writeFileSync(file, '# my companies\nZeta Corp\nAcme Ltd\n\nacme ltd\nBeta Inc\n');
    const d = await loadDictionaries({ files: { org: file }, exclude: new Set(['beta inc', 'JOHN']) });
    expect(d.org).toEqual(['Acme Ltd', 'Zeta Corp']);
    expect(d.first.male).not.toContain('John');
    expect(d.first.male).toContain('James');
  });

  it('splits a gender-less first-name file by the package lists', async () => {
    const file = join(dir, 'first.txt');
    writeFileSync(file, 'Mary\nJohn\nLeslie\nZorblat\n');
    const d = await loadDictionaries({ files: { first: file } });
    expect(d.first).toEqual({ female: ['Mary'], male: ['John'], unknown: ['Leslie', 'Zorblat'] });
  });

  it('names the file when it is missing or empty', async () => {
    const missing = join(dir, 'nope.txt');
    await expect(loadDictionaries({ files: { last: missing } })).rejects.toThrow(TextstressError);
    await expect(loadDictionaries({ files: { last: missing } })).rejects.toThrow(`cannot read the last name list ${missing}`);
    const empty = join(dir, 'empty.txt');
    writeFileSync(empty, '\n# nothing\n\n');
    await expect(loadDictionaries({ files: { city: empty } })).rejects.toThrow(`the city name list ${empty} holds no names`);
  });
});
