/** Values read from files shown as text: an object is JSON, never "[object Object]" (type-aware lint, issue 37). */
import { describe, expect, it } from 'vitest';
import { plainText } from '../../src/util/format.ts';
import { formatMetric } from '../../src/metrics/display.ts';

describe('plainText', () => {
  it('writes strings as they are, objects and arrays as JSON, the rest as String does', () => {
    expect(plainText('greedy')).toBe('greedy');
    expect(plainText({ beam: 4 })).toBe('{"beam":4}');
    expect(plainText(['a', 1])).toBe('["a",1]');
    expect(plainText(3)).toBe('3');
    expect(plainText(undefined)).toBe('undefined');
  });

  it('is what a figure that is no number shows', () => {
    expect(formatMetric({ k: 1 }, 'count')).toBe('{"k":1}');
    expect(formatMetric(null, 'count')).toBe('n/a');
  });
});
