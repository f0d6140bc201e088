/**
 * Control characters from data are shown, not obeyed (issue 25, item 7): an SST-2 row holding an OSC title
 * sequence and colour codes went through `attack typos` to the terminal raw, in the before/after lines. Now every
 * terminal line that quotes data shows them (ESC as ␛, BEL as ␇, bidi overrides as \u202e).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatGrid, formatTable } from '../../src/util/table.ts';
import { terminalSafe } from '../../src/util/terminal.ts';
import { openDiskCache } from '../../src/query/disk-cache.ts';
import { DEMO_SST2, SST2_DEV, runCli, tmp } from './helpers.ts';

// Any byte a terminal obeys: C0 controls but newline, DEL, C1 controls, bidi embeddings/overrides/isolates.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const OSC = '\x1b]0;pwned title\x07';
const RED = '\x1b[31m';
const RESET = '\x1b[0m';

describe('terminalSafe', () => {
  it('shows C0, C1 and bidi controls visibly, keeps printable text, and is idempotent', () => {
    expect(terminalSafe(`${OSC}bleak ${RED}and${RESET} desperate\r\n\t\x9b\u202eevil\x7f`)).toBe(
      '␛]0;pwned title␇bleak ␛[31mand␛[0m desperate␍␊␉\\u009b\\u202eevil␡',
    );
    expect(terminalSafe('a\tb\nc\x1b', { keepLayout: true })).toBe('a\tb\nc␛');
    const once = terminalSafe(`x${OSC}\u2067y`);
    expect(terminalSafe(once)).toBe(once);
    expect(terminalSafe('café — “ok” 日本 🙂')).toBe('café — “ok” 日本 🙂');
  });

  it('tables escape their cells before aligning them', () => {
    expect(formatTable([[`a${RED}`, `1${RESET}`]], `t${OSC}`)).toBe(
      ['t␛]0;pwned title␇', '┌────────────────┐', '│ a␛[31m │ 1␛[0m │', '└────────────────┘'].join('\n'),
    );
    expect(formatGrid(['name', 'n'], [[`x${RED}`, '2']])).toBe(['name    n', '──────  ─', 'x␛[31m  2'].join('\n'));
  });
});

describe('attack typos on SST-2 rows holding escape sequences', () => {
  it('prints no raw control byte on stdout or stderr; the before/after lines show the sequences', async () => {
    const dir = tmp('terminal-escapes');
    const rows = readFileSync(SST2_DEV, 'utf8').split('\n').slice(1, 13).filter(Boolean);
    const data = join(dir, 'dev.tsv');
    // Every sentence retitles the terminal and colours its second word red.
    const poisoned = rows.map((row) => {
      const [sentence, label] = row.split('\t') as [string, string];
      const words = sentence.trim().split(' ');
      if (words.length > 1) words[1] = `${RED}${words[1]}${RESET}`;
      return `${OSC}${words.join(' ')}\u202e \t${label}`;
    });
    writeFileSync(data, ['sentence\tlabel', ...poisoned].join('\n') + '\n');
    const r = await runCli([
      'attack',
      'typos',
      '--model',
      DEMO_SST2,
      '--data',
      data,
      '--k',
      '2',
      '--out',
      join(dir, 'out'),
      '--no-progress',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Examples of successful attacks:');
    expect(r.stdout).toMatch(/ {4}before: ␛\]0;pwned title␇\S+ ␛\[31m\S+␛\[0m /);
    expect(r.stdout).toMatch(/ {4}after: {2}␛\]0;pwned title␇/);
    expect(r.stdout).toContain('\\u202e');
    expect(RAW_CONTROL.test(r.stdout)).toBe(false);
    expect(RAW_CONTROL.test(r.stderr)).toBe(false);
  });

  it('an error naming a data file whose name holds an OSC sequence shows it too', async () => {
    const dir = tmp('terminal-escapes-err');
    const data = join(dir, `bad${OSC}.tsv`);
    writeFileSync(data, 'sentence\tlabel\none column only, no label\n');
    const r = await runCli(['attack', 'typos', '--model', DEMO_SST2, '--data', data, '--out', join(dir, 'out'), '--no-progress']);
    expect(r.code).not.toBe(0);
    expect(RAW_CONTROL.test(r.stdout + r.stderr)).toBe(false);
    expect(r.stderr).toContain(`textstress: error: ${dir}/bad␛]0;pwned title␇.tsv:2: expected 2 tab-separated columns`);
  });

  it('cache stats shows a planted identity (OSC, CSI, C1, bidi) with its controls visible, in the table and --json (issue 35 item 5)', async () => {
    const planted = 'openai:evil\u001b]0;pwned\u0007\u001b[2J\u009b31m\u202e';
    const dir = tmp('cache-escapes');
    const disk = openDiskCache(dir);
    disk.put(disk.key(disk.scope(planted), 'x'), { kind: 'classes', labels: ['a', 'b'], probs: [0.5, 0.5] });
    await disk.flushed();
    await disk.close();
    for (const args of [[], ['--json']]) {
      const r = await runCli(['cache', 'stats', '--cache-dir', dir, ...args]);
      expect(r.code, r.stderr).toBe(0);
      expect(RAW_CONTROL.test(r.stdout + r.stderr)).toBe(false);
      if (args.length) expect((JSON.parse(r.stdout) as { models: { identity: string }[] }).models[0]!.identity).toBe(planted);
      else expect(r.stdout).toContain('openai:evil␛]0;pwned␇␛[2J\\u009b31m\\u202e');
    }
  });
});
