import { normalisePaper, type PaperEntity, type RawPaper } from '@quire/core';

/** The paper the store tests write, as normalised for storing; `overrides` change any raw field. */
export function testPaper(overrides: Partial<RawPaper> = {}): PaperEntity {
  return normalisePaper({
    id: '2604.01234',
    title: 'Step-Level Credit Assignment for LLM Agents',
    abstract: 'We assign credit to steps. Code at https://github.com/example/steps.',
    authors: ['Ada Lovelace', 'Alan Turing'],
    categories: ['cs.LG', 'cs.AI'],
    listingDate: '2026-04-02',
    comment: '12 pages',
    doi: '10.1000/steps',
    ...overrides,
  });
}

/** A batch that announces its papers as listed, and one of replacements. */
export const LISTING = { countsAsListing: true };
export const REPLACEMENT = { countsAsListing: false };
