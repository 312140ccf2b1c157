import { describe, expect, it } from 'vitest';
import { chooseEvictions, needsRefresh, overLimit, pinnedPaperIds } from './cache-rules.ts';

const stamp = (key: string, storedAt: number) => ({ key, storedAt });

describe('chooseEvictions', () => {
  const stamps = [stamp('c', 30), stamp('a', 10), stamp('d', 40), stamp('b', 20), stamp('e', 50)];

  it('drops the oldest stored beyond the limit', () => {
    expect(chooseEvictions(stamps, new Set(), 3)).toEqual(['a', 'b']);
    expect(chooseEvictions(stamps, new Set(), 5)).toEqual([]);
    expect(chooseEvictions(stamps, new Set(), 0)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('never drops a pinned entry, and does not count it towards the limit', () => {
    // a and b are pinned: c, d, e are the unpinned ones, and two of them may stay.
    expect(chooseEvictions(stamps, new Set(['a', 'b']), 2)).toEqual(['c']);
    expect(chooseEvictions(stamps, new Set(['a', 'b', 'c', 'd', 'e']), 0)).toEqual([]);
  });

  it('breaks ties on the key, so the choice is stable', () => {
    expect(chooseEvictions([stamp('y', 5), stamp('x', 5), stamp('z', 9)], new Set(), 1)).toEqual(['x', 'y']);
  });
});

describe('overLimit', () => {
  it('waits for the slack before asking for a scan', () => {
    expect(overLimit(105, 100, 10)).toBe(false);
    expect(overLimit(110, 100, 10)).toBe(false);
    expect(overLimit(111, 100, 10)).toBe(true);
  });
});

describe('pinnedPaperIds', () => {
  it('pins saved papers and each followed topic’s newest papers', () => {
    const topics = [{ paperIds: ['t1', 't2', 't3'] }, { paperIds: ['u1', 's1'] }];
    expect([...pinnedPaperIds(['s1', 's2'], topics, 2)].sort()).toEqual(['s1', 's2', 't1', 't2', 'u1']);
  });
});

describe('needsRefresh', () => {
  it('fetches what is missing or older than the freshness window', () => {
    expect(needsRefresh(undefined, 1000, 100)).toBe(true);
    expect(needsRefresh(950, 1000, 100)).toBe(false);
    expect(needsRefresh(900, 1000, 100)).toBe(true);
  });
});
