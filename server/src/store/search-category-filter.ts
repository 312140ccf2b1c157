import type { Database, Statement } from 'better-sqlite3';
import { DOCS_PER_WORD, LOOKUP_US, WORD_US } from './search-doc-bits.ts';
import type { DocSets } from './search-doc-sets.ts';

/**
 * A `cat:` filter on text matches: a probe per match, or the categories' docs as a set (DocSets), like a
 * topic filter. A probe (the match's paper, then its two or three categories) costs 2.5-5 µs, so a small
 * category behind a common word cost most of a search: at 33x "neighborhood cat:cs.DC" walked 17,000
 * matches for 68 papers (43 ms). Reading a category's docs from its bitmap (search-doc-bits.ts) costs
 * 0.2 µs a row of 32 docs, and testing a match against them 0.08 µs: the set is read when that costs
 * less than the probes the window would make, which holds for nearly every filter on text (at 100x
 * cs.CV and cs.RO are read in 159,000 rows, 30 ms, against 5 µs for each of the hundreds of
 * thousands of matches of a common word).
 */

// A probe's cost per match: 2.5 µs on a 900,000-paper store (33 copies of the corpus), 5 µs at 100x
// ("explanation cat:cs.CV,cs.RO" probed 14,000 matches in 75 ms of CPU, load 6.5).
const PROBE_US = 5;
/**
 * Text matches counted at most to choose a filter's plan (a single word's count costs about 20 ns a
 * match): further than the exact total goes, as a common word's matches are what a probe walks.
 */
export const PLAN_COUNT_UP_TO = 200_000;
/** See WALKS_PER_SEARCH in search-index.ts: the probes are paid again by the titles' walk. */
const WALKS_PER_SEARCH = 2;

// Every distinct category, one index seek each (the primary key starts with the category): a store holds
// a few hundred, so this is cheaper than keeping them and knowing when they change.
const STORED_CATEGORIES = `WITH RECURSIVE c(name) AS (
  SELECT min(category) FROM paper_categories
  UNION ALL SELECT (SELECT min(category) FROM paper_categories WHERE category > c.name) FROM c
  WHERE c.name IS NOT NULL)
SELECT name FROM c WHERE name IS NOT NULL`;
// The bitmap rows a set of these categories is read from. Stops at `cap`: past it the set cannot be
// the cheaper plan.
const WORDS_IN_CATEGORIES = `SELECT count(*) FROM (SELECT 1 FROM category_doc_bits
  WHERE category IN (SELECT value FROM json_each(?)) LIMIT ?)`;

export class SearchCategoryFilter {
  readonly #docSets: DocSets;
  readonly #stored: Statement<[], string>;
  readonly #wordsIn: Statement<[string, number], number>;

  constructor(db: Database, docSets: DocSets) {
    this.#docSets = docSets;
    this.#stored = db.prepare<[], string>(STORED_CATEGORIES).pluck();
    this.#wordsIn = db.prepare<[string, number], number>(WORDS_IN_CATEGORIES).pluck();
  }

  /**
   * The stored categories `asked` (lowercase) names, as CATEGORY_FILTER matches them: a category itself,
   * or every category of an archive ("cs" names "cs.LG"; arXiv categories hold at most one dot).
   */
  names(asked: readonly string[]): string[] {
    const wanted = new Set(asked);
    return this.#stored.all().filter((name) => {
      const dot = name.indexOf('.');
      return wanted.has(name.toLowerCase()) || (dot > 0 && wanted.has(name.slice(0, dot).toLowerCase()));
    });
  }

  /**
   * 'set' when the categories' docs are held or reading them costs less than probing the matches a
   * window of `window` passing ones takes (about window × papers / category size of them, at most all).
   * `textMatches(cap)`: the text's matches, counted no further than `cap`.
   */
  plan(
    names: readonly string[],
    window: number,
    papers: number,
    textMatches: (cap: number) => number,
  ): 'set' | 'probe' {
    if (this.#docSets.has('categories', names)) return 'set';
    const matches = textMatches(PLAN_COUNT_UP_TO);
    // Decided without counting the rows when the most they can be (a row per 32 docs of each category)
    // reads for less than the fewest probes a window makes (it reads at least `window` matches, or all
    // of them): the count is a pass over the rows too, at 100x cs.CV and cs.RO 159,000 of them.
    const mostRows = names.length * Math.ceil(Math.max(1, papers) / DOCS_PER_WORD);
    const fewestProbes = WALKS_PER_SEARCH * PROBE_US * Math.min(matches, window);
    if (WORD_US * mostRows + LOOKUP_US * matches < fewestProbes) return 'set';
    // Past this many rows, reading them costs more than probing every match.
    const cap = Math.ceil((WALKS_PER_SEARCH * PROBE_US * matches) / WORD_US) + 1;
    const rows = this.#wordsIn.get(JSON.stringify(names), cap) ?? 0;
    if (rows >= cap) return 'probe';
    const size = papersIn(rows, names.length, papers);
    const read = Math.min(matches, (window * Math.max(1, papers)) / Math.max(1, size));
    const probes = WALKS_PER_SEARCH * PROBE_US * read;
    return WORD_US * rows + LOOKUP_US * matches < probes ? 'set' : 'probe';
  }
}

/**
 * About how many of `papers` docs the `sets` categories read in `rows` bitmap rows hold, were each
 * one's docs spread evenly: a word of 32 docs is empty with probability (1 - p)^32 for a share p of them
 * in the category. (Counted as if the categories held a share each alike, and no paper two of them.)
 */
export function papersIn(rows: number, sets: number, papers: number): number {
  const words = Math.max(1, Math.ceil(papers / DOCS_PER_WORD));
  const filled = Math.min(1, rows / (words * Math.max(1, sets)));
  return Math.min(papers, sets * papers * (1 - (1 - filled) ** (1 / DOCS_PER_WORD)));
}
