import { describe, expect, it } from 'vitest';
import type { Match } from '../store/search-match.ts';
import type { SearchReader, TermDocs } from '../store/search-reader.ts';
import { COUNT_LEVELS, distinctiveTerms, termCounts } from './fts-related.ts';

/** A reader that knows each word's papers, and tells how many postings each question read. */
function countingReader(docs: Record<string, number>) {
  const read = { postings: 0 };
  const reader = {
    hitsUpTo(match: Match, cap: number) {
      // SQL refuses a LIMIT that is not a whole number.
      if (!Number.isInteger(cap))
        throw new Error(`hitsUpTo(${JSON.stringify(match)}, ${cap}): the cap must be whole.`);
      if (match.kind !== 'word') throw new Error('termCounts asks for one word at a time');
      const n = Math.min(docs[match.term] ?? 0, cap);
      read.postings += n;
      return Promise.resolve(n);
    },
    all(terms: readonly string[]): TermDocs[] {
      const found = terms.flatMap((term) => (docs[term] ? [{ term, docs: docs[term] }] : []));
      read.postings += found.reduce((n, t) => n + t.docs, 0);
      return found;
    },
  };
  return {
    reader: reader as unknown as SearchReader,
    read,
    all: (terms: readonly string[]) => reader.all(terms),
  };
}

describe('the words related papers are searched by', () => {
  const papers = 2_680_000;
  const docs: Record<string, number> = {
    gaussian: 300,
    splatting: 120,
    avatars: 700,
    relighting: 400,
    rendering: 15_000,
    neural: 400_000,
    learning: 1_300_000,
    method: 900_000,
  };
  const terms = [...Object.keys(docs), 'unheard'];

  it('are the ones counting every posting would choose', async () => {
    const { reader } = countingReader(docs);
    const all = countingReader(docs).all(terms);
    expect(distinctiveTerms(await termCounts(reader, terms, papers), papers)).toEqual(
      distinctiveTerms(all, papers),
    );
    expect(distinctiveTerms(all, papers)).toEqual([
      'splatting',
      'gaussian',
      'relighting',
      'avatars',
      'rendering',
    ]);
  });

  it('are found without reading a common word’s postings to the end', async () => {
    const { reader, read } = countingReader(docs);
    await termCounts(reader, terms, papers);
    // Each word up to the first level, then the four common ones up to each further level.
    const levels = COUNT_LEVELS.reduce((n, level) => n + level + 1, 0);
    expect(read.postings).toBeLessThanOrEqual(terms.length * (COUNT_LEVELS[0] + 1) + 4 * levels);
    expect(read.postings).toBeLessThan(docs.learning ?? 0);
  });

  it('are the same in a small collection, where the share of papers bounds a word before the budget', async () => {
    const { reader } = countingReader(docs);
    const all = countingReader(docs).all(terms);
    expect(distinctiveTerms(await termCounts(reader, terms, 26_845), 26_845)).toEqual(
      distinctiveTerms(all, 26_845),
    );
  });

  it('take words past the last level in term order when too few are rarer, none read whole', async () => {
    const few = { splatting: 120, neural: 400_000, learning: 1_300_000, method: 900_000, rendering: 15_000 };
    const { reader, read } = countingReader(few);
    const counted = await termCounts(reader, Object.keys(few), papers);
    expect(distinctiveTerms(counted, papers)).toEqual(['splatting', 'rendering', 'learning', 'method']);
    expect(read.postings).toBeLessThan(5 * COUNT_LEVELS.reduce((n, level) => n + level + 1, 0));
  });
});
