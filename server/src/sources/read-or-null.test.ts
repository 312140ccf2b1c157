import { CoreError, rfc2822Day } from '@quire/core';
import { describe, expect, it } from 'vitest';
import { readOrNull } from './read-or-null.ts';

describe('readOrNull', () => {
  it("gives the reader's answer, or null when core finds the value unreadable", () => {
    expect(readOrNull(rfc2822Day, 'Mon, 16 Mar 2026 22:30:00 -0400')).toBe('2026-03-16');
    expect(readOrNull(rfc2822Day, 'sometime')).toBeNull();
  });

  it('throws any error that is not a CoreError', () => {
    const bug = (): never => {
      throw new TypeError('a bug');
    };
    expect(() => readOrNull(bug, 'x')).toThrow(TypeError);
    expect(
      readOrNull(() => {
        throw new CoreError('invalid-date', 'unreadable');
      }, 'x'),
    ).toBeNull();
  });
});
