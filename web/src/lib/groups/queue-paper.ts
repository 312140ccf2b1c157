/**
 * The snapshot a queue entry embeds, from whatever paper a Save button holds. Cards from search and
 * related papers carry only what a list shows; the session fetches the full paper for them, and when that
 * cannot be had (offline, or a paper the server lacks) the queue gets what the card has: a later save
 * online refreshes the snapshot.
 */
import { absUrl, pdfUrl, type PaperEntity } from '@quire/core';
import { snapshotOfPaper, type PaperSnapshot, type SnapshotSource } from '@quire/core/group';
import type { SavablePaper } from '../managers/saved-paper.ts';

/** A Save button's paper, which may be a full paper (a topic card, the paper view) or a list entry. */
export type QueueablePaper = SavablePaper & Partial<Pick<PaperEntity, 'abstract'>>;

export function isFullPaper(paper: QueueablePaper): paper is QueueablePaper & SnapshotSource {
  const p = paper as Partial<SnapshotSource>;
  return (
    typeof p.abstract === 'string' &&
    Array.isArray(p.versions) &&
    Array.isArray(p.categories) &&
    Array.isArray(p.codeLinks) &&
    typeof p.links === 'object' &&
    p.links !== null
  );
}

/** The snapshot when the paper is full; null when it has to be fetched first. */
export function fullSnapshot(paper: QueueablePaper): PaperSnapshot | null {
  return isFullPaper(paper) ? snapshotOfPaper(paper) : null;
}

/** What a list entry alone gives: title, authors, date and category, with arXiv's links. */
export function partialSnapshot(paper: QueueablePaper): PaperSnapshot {
  return {
    id: paper.id,
    version: null,
    title: paper.title,
    authors: paper.authors.map((a) => a.name),
    abstract: paper.abstract ?? '',
    links: { abs: absUrl(paper.id), pdf: pdfUrl(paper.id) },
    primaryCategory: paper.primaryCategory,
    categories: paper.primaryCategory ? [paper.primaryCategory] : [],
    listingDate: paper.listingDate,
    tags: [],
    codeLinks: [],
  };
}
