import type { PaperView } from '../api/types.ts';

/** A paper as the API serves it, for the offline tests: only what search reads is worth setting. */
export function testPaper(
  id: string,
  title: string,
  abstract: string,
  options: { tags?: string[]; authors?: string[] } = {},
): PaperView {
  return {
    id,
    title,
    abstract,
    authors: (options.authors ?? ['Jane Doe']).map((name) => ({ name, affiliations: [] })),
    categories: ['cs.LG'],
    primaryCategory: 'cs.LG',
    versions: [],
    listingDate: '2026-04-01',
    listingDateEstimated: false,
    submittedV1: null,
    comment: null,
    doi: null,
    journalRef: null,
    license: null,
    links: { abs: `https://arxiv.org/abs/${id}`, pdf: `https://arxiv.org/pdf/${id}` },
    codeLinks: [],
    tags: (options.tags ?? []).map((slug) => ({
      slug,
      name: slug,
      direct: true,
      depth: 0,
      score: 1,
      evidence: [],
    })),
  };
}
