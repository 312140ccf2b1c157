/**
 * A ranked window that also gives the best papers by their titles alone, in the one statement.
 *
 * When more papers match than a window ranks, the search re-ranks the window's best and, beside them,
 * the best matches in titles, so a paper its title names is not lost among the most recent matches. Those
 * were a second statement over `{title} : …`, and every statement calling bm25() reads each phrase's whole
 * posting list first to count the papers holding it (its idf): at 100x a common word's list holds
 * 300,000-900,000 papers, 10-30 ms a statement. Here the window's rows are scored twice, once with the
 * query's weights and once with the title's alone (bm25 with weights 1, 0, 0: above zero only for a
 * phrase found in the title), and FTS5 counts each list once for both, since calls of one function in
 * one statement share its per-query data. The titles' best are those of the window, not of the newest
 * title matches, which reach further back.
 */

/**
 * Both scores of the `window` newest matches passing `filters` (search-index.ts's SQL, on `d`,
 * search_docs, and `paper_search`), and how many passed: the rows of the page (`inPage`) and the best
 * `titles` by their titles (`titled`). Each match is looked up in search_docs for its paper id, filtered
 * or not: a window is a few thousand rows, one index seek each.
 */
export const RANKED_TITLED = (filters: string): string => `
SELECT paper_id AS paperId, -bm25 AS score, matched, lowest, inPage, titled FROM (
  SELECT paper_id, bm25, matched, lowest,
    byAll > @offset AND byAll <= @offset + @limit AS inPage,
    title < 0 AND byTitle <= @titles AS titled
  FROM (
    SELECT paper_id, bm25, title, min(doc) OVER () AS lowest, count(*) OVER () AS matched,
      row_number() OVER (ORDER BY bm25, paper_id) AS byAll,
      row_number() OVER (ORDER BY title, bm25, paper_id) AS byTitle
    FROM (
      SELECT d.doc, d.paper_id, bm25(paper_search, @title, @authors, @abstract) AS bm25,
        bm25(paper_search, 1, 0, 0) AS title
      FROM paper_search JOIN search_docs d ON d.doc = paper_search.rowid
      WHERE paper_search MATCH @match${filters}
      ORDER BY paper_search.rowid DESC LIMIT @window)))
WHERE inPage OR titled ORDER BY bm25, paperId`;

export interface TitledRow {
  paperId: string;
  score: number;
  matched: number;
  lowest: number;
  inPage: number;
  titled: number;
}
