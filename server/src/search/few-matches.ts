import type { IndexFilters, PaperTextRow, RankedRow, SearchReader } from '../store/search-reader.ts';
import { textMatch, type QueryParts, type TermGroup } from './query-match.ts';
import type { FieldTerms } from './search-hits.ts';

/**
 * Matches read whole and every one re-ranked, with no first ranking, when at most this many match (see
 * fewMatchesIn). The first ranking (bm25 on SQLite) reads each word's whole posting list before it ranks
 * anything, so a rare word beside a common one ("xinshun wang") paid for the common word's list: at 100x
 * 20-60 ms to rank a few hundred papers. A word being typed after rare words ("acttail activ") cost
 * more: FTS5 merges every completion's list of a prefix before matching it (at 100x "activ"* over a
 * million papers), so the prefix is checked here against the few papers the other words match, in their
 * terms (which the re-ranking reads anyway: about 50 µs a paper, read and tokenized).
 */
export const FEW_MATCHES = 300;
/**
 * Papers indexed per match read whole: the lists the first ranking reads grow with the store, a paper's
 * re-ranking does not, so a small store ranks as before (the first RERANK_CANDIDATES re-ranked) and a
 * store of 2.7M papers re-ranks up to FEW_MATCHES whole (measured at 100x: CPU p95 126 -> 111 ms from
 * 120 to 300 matches).
 */
export const PAPERS_PER_FEW_MATCH = 10_000;

/** How many matches are read whole in a store of `papers`, at least `atLeast`. */
export function fewMatchesIn(papers: number, atLeast: number): number {
  return Math.min(FEW_MATCHES, Math.max(atLeast, Math.floor(papers / PAPERS_PER_FEW_MATCH)));
}

/** Candidates chosen for re-ranking: `head` re-ranked, `rest` after them as the index ranked them. */
export interface Picked {
  head: RankedRow[];
  rest: RankedRow[];
  headText: Map<string, PaperTextRow>;
  total: number;
  estimated: boolean;
}

/**
 * Every paper matching the words (all of them) and filters, when at most `few` do; null when more may.
 * `termsOf`: a paper's terms per field (the search's cache).
 */
export async function fewMatches(
  index: SearchReader,
  parts: QueryParts,
  filters: IndexFilters,
  few: number,
  termsOf: (row: PaperTextRow) => { fields: FieldTerms },
): Promise<Picked | null> {
  const typed = parts.groups.find((g) => g.prefix && g.asWord !== true);
  const others = typed ? { ...parts, groups: parts.groups.filter((g) => g !== typed) } : parts;
  const match = textMatch(others, 'AND');
  // A prefix alone has nothing rarer to be checked against.
  if (match === null) return null;
  if ((await index.hitsUpTo(match, few + 1)) > few) return null;
  const { ids } = await index.newest(match, filters, { limit: few, offset: 0 });
  const headText = await index.paperRows(ids);
  const head = ids.flatMap((paperId) => {
    const row = headText.get(paperId);
    return row && (!typed || holds(termsOf(row).fields, typed)) ? [{ paperId, score: 0 }] : [];
  });
  return { head, rest: [], headText, total: head.length, estimated: false };
}

/** Whether a paper's terms hold the word being typed as the index matches it: a completion or a correction. */
function holds(fields: FieldTerms, typed: TermGroup): boolean {
  return Object.values(fields).some((terms) =>
    terms.some((t) => t.startsWith(typed.term) || typed.corrections.includes(t)),
  );
}
