import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readResembleConfig, writeResembleConfig, type ResembleConfig } from '../../src/defence/config.ts';

const ok: ResembleConfig = {
  textstress: 'resemble',
  version: 1,
  type: 'PER',
  canonical: ['Alice Walker'],
  temperature: 2,
  annotator: { kind: 'gazetteer' },
};

describe('RESEMBLE config file', () => {
  it('writes and reads back', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'resemble-')), 'r.json');
    writeResembleConfig(file, ok);
    expect(readResembleConfig(file)).toEqual(ok);
  });

  it('names the file and the field at fault', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'resemble-')), 'bad.json');
    writeFileSync(file, JSON.stringify({ ...ok, type: 'PERSON', temperature: -1 }));
    expect(() => readResembleConfig(file)).toThrow(
      expect.objectContaining({ where: file, message: expect.stringMatching(/type: .*temperature: /s) }),
    );
    writeFileSync(file, '{ nope');
    expect(() => readResembleConfig(file)).toThrow(expect.objectContaining({ where: file, message: expect.stringMatching(/not JSON/) }));
    expect(() => readResembleConfig(join(file, 'missing'))).toThrow(/cannot read the RESEMBLE config/);
  });
});
