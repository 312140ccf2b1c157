import { describe, expect, it } from 'vitest';
import { prefixEnd } from './search-match.ts';

/** The engines' order of terms: UTF-8 bytes (SQLite; PostgreSQL's "C" collation). */
const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe('prefixEnd', () => {
  it('bounds every term that starts with the prefix, and none that sorts past them', () => {
    const cases: [prefix: string, inside: string[], after: string][] = [
      ['lant', ['lant', 'lantern', 'lant\u{10FFFF}'], 'lanu'],
      ['caf\u00e9', ['caf\u00e9s'], 'caf\u00ea'],
      // Ends in U+203FF, whose low surrogate is 0xDFFF: stepping that unit alone gave a lone surrogate.
      ['\u{20000}\u{203FF}', ['\u{20000}\u{203FF}\u{20400}'], '\u{20000}\u{20400}'],
      // Ends in U+D7FF: the step skips the surrogate block.
      ['a\u{D7FF}', ['a\u{D7FF}z'], 'a\u{E000}'],
      ['a\u{10FFFF}', ['a\u{10FFFF}b'], 'b'],
    ];
    for (const [prefix, inside, after] of cases) {
      const end = prefixEnd(prefix);
      for (const term of inside) expect(byBytes(term, end), `${prefix} ${term}`).toBeLessThan(0);
      expect(byBytes(prefix, end)).toBeLessThan(0);
      expect(byBytes(after, end), `${prefix} ends at ${after}`).toBe(0);
    }
  });
});
