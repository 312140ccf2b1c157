import type { Match } from '../search-match.ts';
import { clausesMet, filtersFrom, type ClauseParams, type PostingAtom } from './pg-search-postings-window.ts';
import type { SearchVector } from './pg-search-queries.ts';

/*
 * A ranked window for a match holding phrases, read from the postings (issue 13, at 10x). The vectors'
 * GIN index knows no positions: every paper holding a phrase's words was read out of TOAST to check it
 * (15,000 vectors for "task specific" at 10x, 270 ms cold, most of it twice: the window, then its count).
 * Here the papers holding every word (each phrase taken as its words: postingClauses' `phrasesAsWords`)
 * are the window, the newest `$2`, scored from the postings as words; then, best first, each is checked
 * against the whole match on its vector until the page is full. Only those few vectors are read, and the
 * total's, when it is cheap: every candidate checked when there are at most `$exact` of them, else the
 * newest `$sample` checked and the share passing scales the candidates' count (an estimate, said so).
 * The re-ranking weighs a phrase's words as words anyway (search/rerank.ts), so the first ranking asks
 * what it will.
 */

/** Whether the match holds a phrase of several words (outside an exclusion, which is never ranked). */
export function holdsPhrase(match: Match): boolean {
  switch (match.kind) {
    case 'word':
      return false;
    case 'phrase':
      return match.terms.length > 1;
    case 'all':
    case 'any':
      return match.of.some(holdsPhrase);
    case 'columns':
      return holdsPhrase(match.of);
    case 'without':
      return holdsPhrase(match.of);
  }
}

/** Candidates all checked for an exact total at most; past it a sample is. */
export const PHRASE_EXACT_UP_TO = 300;
/** The newest candidates checked for the share of them the match holds, when there are more. */
export const PHRASE_SAMPLE = 200;

/** The parameters PHRASE_WINDOW reads besides the clauses' own. */
export interface PhraseParams {
  /** The whole match as a tsquery. */
  query: string;
  exact: string;
  sample: string;
}

/**
 * The window's SQL: `$1` ts_rank's weights, `$2` the window, `$3`/`$4` the page; `filters` over the papers
 * row `d`. Each row: a checked paper and its score (both null on the one row when none passed), how many candidates the window held (`matched`), the
 * oldest of them (`lowest`), and either every candidate's check (`exact`) or the sample's (`passed` of
 * `sampled`). The check is a subquery kept apart (OFFSET 0), so the planner probes each candidate's row
 * by its key rather than joining every match of the tsquery through the GIN index.
 */
export function PHRASE_WINDOW(
  clauses: readonly PostingAtom[][],
  vector: SearchVector,
  filters: string,
  params: ClauseParams,
  phrase: PhraseParams,
): string {
  const { from, score } = clausesMet(clauses, vector, params, filters === '' ? '$2' : null);
  const papers = filtersFrom(filters);
  const holds = (id: string) =>
    `EXISTS (SELECT 1 FROM paper_search s WHERE s.paper_id = ${id} AND s.${vector} @@ ${phrase.query}::tsquery OFFSET 0)`;
  return `
WITH w AS MATERIALIZED (
  SELECT c0.paper_id, ${score} AS score FROM ${from}${papers}
  ORDER BY c0.paper_id DESC LIMIT $2),
n AS MATERIALIZED (SELECT count(*)::integer AS matched, min(w.paper_id) AS lowest FROM w),
hit AS MATERIALIZED (SELECT r.paper_id, r.score FROM (SELECT w.paper_id, w.score FROM w
    ORDER BY w.score DESC, w.paper_id OFFSET 0) r
  WHERE ${holds('r.paper_id')} LIMIT $3::integer + $4::integer)
SELECT hit.paper_id AS "paperId", hit.score::float8 AS score, n.matched, n.lowest,
  CASE WHEN n.matched <= ${phrase.exact}::integer
    THEN (SELECT count(*) FROM w WHERE ${holds('w.paper_id')})::integer END AS exact,
  CASE WHEN n.matched > ${phrase.exact}::integer
    THEN (SELECT count(*) FROM (SELECT w.paper_id FROM w ORDER BY w.paper_id DESC LIMIT ${phrase.sample}::integer) x
      WHERE ${holds('x.paper_id')})::integer END AS passed
FROM n LEFT JOIN hit ON TRUE ORDER BY score DESC NULLS LAST, hit.paper_id LIMIT $3 OFFSET $4`;
}

/** A PHRASE_WINDOW row. */
export interface PhraseRow {
  paperId: string | null;
  score: number | null;
  matched: number;
  lowest: string | null;
  exact: number | null;
  passed: number | null;
}

/** `n` rounded to two significant digits, as SQLite's estimated totals are (search-index.ts). */
export function roundedEstimate(n: number): number {
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(1, n))) - 1);
  return Math.round(n / unit) * unit;
}
