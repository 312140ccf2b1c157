import type { PaperEntity } from '@quire/core';
import { parseStoredList } from './local-store.ts';

/**
 * A saved paper as the reading list keeps it: enough to list it with no server at hand (offline, or after
 * the paper left the cache), and the moment it was saved.
 */
export interface SavedPaper {
  id: string;
  title: string;
  /** Author names, in order. */
  authors: string[];
  listingDate: string | null;
  primaryCategory: string;
  /** ISO timestamp. */
  savedAt: string;
}

/** What saving needs from a paper: a card's or the paper view's paper will do. */
export type SavablePaper = Pick<PaperEntity, 'id' | 'title' | 'authors' | 'listingDate' | 'primaryCategory'>;

/** A list entry that carries author names only (a search result, a related paper), as saving takes it. */
export function savableOf(
  entry: Pick<SavedPaper, 'id' | 'title' | 'listingDate' | 'primaryCategory'> & {
    authors: readonly string[];
  },
): SavablePaper {
  return {
    id: entry.id,
    title: entry.title,
    listingDate: entry.listingDate,
    primaryCategory: entry.primaryCategory,
    authors: entry.authors.map((name) => ({ name, affiliations: [] })),
  };
}

export function snapshotOf(paper: SavablePaper, savedAt: Date = new Date()): SavedPaper {
  return {
    id: paper.id,
    title: paper.title,
    authors: paper.authors.map((a) => a.name),
    listingDate: paper.listingDate,
    primaryCategory: paper.primaryCategory,
    savedAt: savedAt.toISOString(),
  };
}

function isSavedPaper(value: unknown): value is SavedPaper {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.id === 'string' &&
    typeof v.title === 'string' &&
    Array.isArray(v.authors) &&
    v.authors.every((a) => typeof a === 'string') &&
    (v.listingDate === null || typeof v.listingDate === 'string') &&
    typeof v.primaryCategory === 'string' &&
    typeof v.savedAt === 'string'
  );
}

/** A stored list, once per id, dropping anything malformed rather than failing the page. */
export function parseSavedPapers(raw: string | null): SavedPaper[] {
  return parseStoredList(raw, isSavedPaper);
}

/** `papers` (last saved first) with `saved` put back in its place by the time it was saved. */
export function insertBySavedAt(papers: readonly SavedPaper[], saved: SavedPaper): SavedPaper[] {
  const at = papers.findIndex((p) => p.savedAt < saved.savedAt);
  const next = [...papers];
  next.splice(at === -1 ? next.length : at, 0, saved);
  return next;
}
