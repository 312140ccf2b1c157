import { describe, expect, it } from 'vitest';
import { versionEntry } from './version-entries.ts';

describe('versionEntry', () => {
  it('numbers by the label and converts the RFC 2822 date to UTC', () => {
    expect(versionEntry('v2', 0, 'Mon, 16 Mar 2026 22:30:00 -0400', '12kb')).toEqual({
      version: 2,
      submitted: '2026-03-17T02:30:00Z',
      size: '12kb',
    });
  });

  it('numbers by position when the label is missing or unreadable', () => {
    expect(versionEntry(null, 0, null, null)).toEqual({ version: 1, submitted: null, size: null });
    expect(versionEntry('2', 2, null, null).version).toBe(3);
  });

  it('leaves an unreadable date out instead of failing the record', () => {
    expect(versionEntry('v1', 0, 'yesterday', null).submitted).toBeNull();
    expect(versionEntry('v1', 0, 'Mon, 2 Foo 2007 19:18:42 GMT', null).submitted).toBeNull();
  });
});
