import type { Match } from '../search-match.ts';
import { POSITION_COLUMN } from './pg-search-positions.ts';
import type { SearchVector } from './pg-search-queries.ts';

/*
 * A ranked window read from the postings (pg-search-postings.ts) instead of the vectors, for a match made
 * of words: each word asked of some columns, ANDed and ORed, as FtsSearch asks a query's words, their typo
 * corrections and completions, and its title candidates. Phrases, prefixes and negations are left to
 * RANKED_WINDOW, which reads the vectors. The window and its scores are RANKED_WINDOW's: the newest `$2` matches, each scored
 * as Σ idf × ts_rank(weights, vector, word, 1) over the match's words (ts_rank from the counts:
 * quire_rank), ts_rank counting a word wherever the vector holds it, as it ignores a query's weight labels.
 */

/**
 * A word the match asks of the columns `weights` names (A title, B authors, C abstract); or, with `phrase`,
 * those words standing in that order within one of the columns (`term` the first), always a clause alone.
 */
export interface PostingAtom {
  term: string;
  weights: string;
  phrase?: readonly string[];
  /** Every indexed word starting with `term` (itself included): a prefix, always a clause alone. */
  prefix?: boolean;
}

const EVERY_WEIGHT = 'ABC';
const WEIGHT = { title: 'A', authors: 'B', abstract: 'C' } as const;

/**
 * The match as clauses every matching paper satisfies, each one of its words (in the columns asked), the
 * words in pg-tsquery.ts rankedLeaves' order (so the i-th word is the i-th ranked part); null when the
 * match is not made of words alone. `prefixes`: a prefix is a clause of its own (its words' range of the
 * key, PostingAtom.prefix), else the match is left to the vectors.
 */
export function postingClauses(
  match: Match,
  weights: string = EVERY_WEIGHT,
  prefixes = false,
): PostingAtom[][] | null {
  switch (match.kind) {
    case 'word':
      // A prefix joined with other words was left to the vectors: its completions' postings (every one of
      // "training*" at 10x) are all read and summed, where the GIN index meets them with the other
      // words' as bitmaps ("second training", 350 against 120 ms). The reader asks for it as a range when
      // its words' postings are few enough (pg-search-reader.ts: PREFIX_RANGE_POSTINGS).
      if (match.prefix) return prefixes ? [[{ term: match.term, weights, prefix: true }]] : null;
      return [[{ term: match.term, weights }]];
    case 'phrase': {
      const [first] = match.terms;
      if (first === undefined) return null;
      if (match.terms.length === 1) return [[{ term: first, weights }]];
      // Asked of one column, ts_rank scores a phrase by its words' distances (calc_rank_and), which the
      // postings do not hold: left to the vectors. Of several, it is an OR of the columns' phrases, which
      // ts_rank scores as its distinct words' mean (calc_rank_or): see phraseSql.
      return weights.length > 1 ? [[{ term: first, weights, phrase: match.terms }]] : null;
    }
    case 'all': {
      const clauses: PostingAtom[][] = [];
      for (const m of match.of) {
        const part = postingClauses(m, weights, prefixes);
        if (part === null) return null;
        clauses.push(...part);
      }
      return clauses;
    }
    case 'any': {
      const atoms: PostingAtom[] = [];
      for (const m of match.of) {
        const part = postingClauses(m, weights);
        // An alternative that is itself several clauses (an AND inside an OR) is not one clause, nor is
        // a phrase one word's postings.
        if (part === null || part.length !== 1 || part[0] === undefined) return null;
        if (part[0].some((a) => a.phrase !== undefined || a.prefix === true)) return null;
        atoms.push(...part[0]);
      }
      return [atoms];
    }
    case 'columns': {
      const allowed = match.columns.map((c) => WEIGHT[c]);
      const narrowed = [...weights].filter((w) => allowed.includes(w as 'A' | 'B' | 'C')).join('');
      // No column left matches nothing: RANKED_WINDOW says so.
      return narrowed === '' ? null : postingClauses(match.of, narrowed, prefixes);
    }
    case 'without':
      return null;
  }
}

/** Whether the posting `p` holds its word in a column `weights` names. */
function inColumns(weights: string): string {
  if (weights === EVERY_WEIGHT) return 'TRUE';
  const holds = [...weights].map((w) =>
    w === 'A' ? 'p.title > 0' : w === 'B' ? 'p.authors > 0' : 'p.abstract > 0',
  );
  return holds.length === 1 ? (holds[0] ?? 'FALSE') : `(${holds.join(' OR ')})`;
}

/** The same for the columns a clause's word asks (`q.cols`, a string of weights) as a value. */
const IN_ASKED_COLUMNS = `(p.title > 0 AND strpos(q.cols, 'A') > 0 OR p.authors > 0 AND strpos(q.cols, 'B') > 0
      OR p.abstract > 0 AND strpos(q.cols, 'C') > 0)`;

/** A posting's ts_rank on the vector matched: the whole paper's, or its title's alone (title_doc). */
const RANK = (vector: SearchVector) =>
  vector === 'doc'
    ? 'quire_rank($1::float4[], p.title, p.authors, p.abstract, p.terms)'
    : 'quire_rank($1::float4[], p.title, 0, 0, p.title_terms)';

/** What a clause's SQL reads its words by: numbered parameters, appended as they are asked for. */
export interface ClauseParams {
  /** A plain word's term and idf, as parameter references. */
  word(atom: number): { term: string; idf: string };
  /** A plain word's term alone, as a parameter reference (a prefix's papers narrowed to the word's). */
  term(atom: number): string;
  /** A clause's words as arrays: each one's term, idf and columns. */
  words(atoms: readonly number[]): { terms: string; idfs: string; cols: string };
  /** A phrase's distinct words, as text parameters in their first order, and its idf. */
  phrase(atom: number): { terms: string[]; idf: string };
  /** A prefix's range of words (from the prefix, up to the first word past its completions) and its idf. */
  range(atom: number): { from: string; to: string; idf: string };
}

/**
 * A prefix's papers with their part of the score: its words' postings, one range of the key, summed per
 * paper as clauseSql sums a clause of several words (each form scored with the prefix's idf, as ts_rank
 * sums every entry a prefix finds), the paper kept when a form is in a column asked. `within`: a word
 * of another clause (its term's parameter), every paper the match keeps holding it: only its papers'
 * postings of the range are ranked and summed, where every one was: at 10x "zhang*" beside "wei" ranked
 * and hashed 42,820 postings for the 4,690 papers holding both, and "training*" beside "second" 85,770
 * (its hash spilling to disk at the default work_mem) for 5,660, of which 6,410 postings are the second's.
 */
function prefixSql(
  atom: PostingAtom,
  first: number,
  vector: SearchVector,
  params: ClauseParams,
  within: string | null,
): string {
  const { from, to, idf } = params.range(first);
  const inTitle = vector === 'title_doc' ? ' AND p.title > 0' : '';
  const asked = vector === 'title_doc' ? 'TRUE' : inColumns(atom.weights);
  const narrowed =
    within === null
      ? ''
      : `\n        AND p.paper_id IN (SELECT x.paper_id FROM search_postings x WHERE x.word = ${within})`;
  return `SELECT p.paper_id, sum(${idf}::float8 * ${RANK(vector)}) AS s FROM search_postings p
      WHERE p.word >= ${from} AND p.word < ${to}${inTitle}${narrowed}
      GROUP BY p.paper_id${asked === 'TRUE' ? '' : ` HAVING bool_or(${asked})`}`;
}

/**
 * A phrase's papers with their part of the score: the papers holding every word (each word's positions
 * met on the paper's id, read in id order through the key, the positions on the postings' table
 * pages) where the words stand in order in a column asked. ts_rank scores an OR of the columns' phrases as calc_rank_or does any OR: each distinct word's
 * rank summed, then divided by how many there are (query weights ignored, as for a word); the positions
 * are in the word's posting beside its counts.
 */
function phraseSql(atom: PostingAtom, first: number, vector: SearchVector, params: ClauseParams): string {
  const { terms, idf } = params.phrase(first);
  const words = atom.phrase ?? [];
  // Each distinct word read once (`x<i>`, its positions); `alias[k]`: the k-th word's.
  const distinct = [...new Set(words)];
  const alias = words.map((w) => distinct.indexOf(w));
  const ranks = distinct.map((_, i) => RANK(vector).replaceAll('p.', `x${i}.`)).join(' + ');
  const joins = distinct
    .slice(1)
    .map(
      (_, k) =>
        `\n      JOIN search_postings x${k + 1} ON x${k + 1}.word = ${terms[k + 1] ?? ''} AND x${k + 1}.paper_id = x0.paper_id`,
    )
    .join('');
  const codes = [...atom.weights].map((w) => 'ABC'.indexOf(w));
  const next = alias
    .slice(1)
    .map((a, k) => ` AND e + ${k + 1} = ANY(x${a}.at)`)
    .join('');
  return `SELECT x0.paper_id, ${idf}::float8 * (${ranks}) / ${distinct.length} AS s
      FROM search_postings x0${joins}
      WHERE x0.word = ${terms[0] ?? ''} AND EXISTS (SELECT 1 FROM unnest(x${alias[0] ?? 0}.at) e
        WHERE ${POSITION_COLUMN('e')} IN (${codes.join(', ')})${next})`;
}

/**
 * A clause's papers with their part of the score (`s`): one word's postings read in id order (the newest
 * first, through the key); several words, their postings merged in id order (mergedClauseSql) or, past
 * MERGED_WORDS, read word by word (one plan node however many: a prefix's completions are up to 200)
 * and summed per paper, every posting scored (ts_rank
 * counts a word the paper holds in any column) and the paper kept when one is in a column asked.
 * `newest`: the clause's newest this many papers are all that is wanted (see `newestOnly`), so each word's
 * newest this many postings are all that is read of it: a paper among the clause's newest N is among the
 * newest N of every word it holds (fewer than N papers newer than it hold any of them), so its sum is whole.
 */
function clauseSql(
  clause: readonly PostingAtom[],
  first: number,
  vector: SearchVector,
  params: ClauseParams,
  newest: string | null = null,
  within: string | null = null,
): string {
  const rank = RANK(vector);
  const [only] = clause;
  if (only?.phrase !== undefined) return phraseSql(only, first, vector, params);
  if (only?.prefix === true) return prefixSql(only, first, vector, params, within);
  if (clause.length === 1 && only !== undefined) {
    const { term, idf } = params.word(first);
    const holds = inColumns(vector === 'title_doc' ? 'A' : only.weights);
    const where = holds === 'TRUE' ? '' : ` AND ${holds}`;
    return `SELECT p.paper_id, ${idf}::float8 * ${rank} AS s FROM search_postings p WHERE p.word = ${term}${where}`;
  }
  // On the title's vector a word elsewhere ranks 0: only its title postings are read.
  const inTitle = vector === 'title_doc' ? ' AND p.title > 0' : '';
  if (clause.length <= MERGED_WORDS) return mergedClauseSql(clause, first, vector, params, inTitle, newest);
  const { terms, idfs, cols } = params.words(clause.map((_, i) => first + i));
  // Every word asking the same columns (a typo's corrections, a prefix's completions, a paper's related
  // words): those columns tested as such, not looked up in each posting's row of the words (three strpos
  // a posting); in every column, no test at all, as every posting holds its word somewhere.
  const [head] = clause;
  const asked =
    vector === 'title_doc'
      ? 'TRUE'
      : head !== undefined && clause.every((a) => a.weights === head.weights)
        ? inColumns(head.weights)
        : IN_ASKED_COLUMNS;
  const postings =
    newest === null
      ? `JOIN search_postings p ON p.word = q.term${inTitle}`
      : `CROSS JOIN LATERAL (SELECT p.paper_id, p.title, p.authors, p.abstract, p.terms, p.title_terms
      FROM search_postings p WHERE p.word = q.term${inTitle} ORDER BY p.paper_id DESC LIMIT ${newest}) p`;
  return `SELECT p.paper_id, sum(q.idf * ${rank}) AS s
    FROM unnest(${terms}::text[], ${idfs}::float8[], ${cols}::text[]) AS q (term, idf, cols)
    ${postings}
    GROUP BY p.paper_id${asked === 'TRUE' ? '' : ` HAVING bool_or(${asked})`}`;
}

/** A clause of at most this many words is read as their postings merged in id order (mergedClauseSql). */
const MERGED_WORDS = 64;

/**
 * A clause of several words as each word's postings read newest first through the key and merged in id
 * order, summed per paper as they stream by, the clause's papers newest first: a window over it stops at
 * its newest `$2` papers, where the words' postings joined by unnest were all read, hashed per paper and
 * the papers sorted by id (related papers at 4x: 44,600 postings into 37,700 papers, 110 against 30-40 ms
 * of backend CPU). The rank is computed once over the merged rows, not in each word's branch: inlined per
 * branch, its constant arrays made planning alone 40-60 ms. An aggregate with an ORDER BY cannot be
 * hashed (PostgreSQL 15's planner), so the grouping follows the merge's order whatever the planner
 * guesses of the papers (it guesses 200 groups over a UNION ALL, and would hash them, then sort them);
 * the order asked, the words' (`k`), sums a paper's parts as the vectors' ranking does (RANKED_WINDOW's
 * SCORE), so equal scores stay equal to the last bit and ties keep their order by id.
 */
function mergedClauseSql(
  clause: readonly PostingAtom[],
  first: number,
  vector: SearchVector,
  params: ClauseParams,
  inTitle: string,
  newest: string | null,
): string {
  // The same test as clauseSql's, per word: the columns its word asks (none on the title's vector).
  const asked = clause.map((a) => (vector === 'title_doc' ? 'TRUE' : inColumns(a.weights)));
  const tested = asked.some((a) => a !== 'TRUE');
  const branches = clause.map((_, i) => {
    const { term, idf } = params.word(first + i);
    return `(SELECT p.paper_id, p.title, p.authors, p.abstract, p.terms, p.title_terms, ${idf}::float8 AS idf, ${i} AS k${
      tested ? `, ${asked[i] ?? 'TRUE'} AS asked` : ''
    }
      FROM search_postings p WHERE p.word = ${term}${inTitle} ORDER BY p.paper_id DESC${newest === null ? '' : ` LIMIT ${newest}`})`;
  });
  return `SELECT u.paper_id, sum(u.idf * ${RANK(vector).replaceAll('p.', 'u.')} ORDER BY u.k) AS s
    FROM (${branches.join('\n      UNION ALL ')}) u
    GROUP BY u.paper_id${tested ? ' HAVING bool_or(u.asked)' : ''} ORDER BY u.paper_id DESC`;
}

/**
 * Whether a window may read only each word's newest postings (clauseSql's `newest`): a match of one
 * clause (an AND's papers may lie deep in each word's list), every posting read qualifying its paper (on
 * the title's vector only title postings are read; else every word asked in every column), so that the
 * papers newer than one kept are all kept too.
 */
function newestOnly(clauses: readonly PostingAtom[][], vector: SearchVector): boolean {
  const [only] = clauses;
  return (
    clauses.length === 1 &&
    only !== undefined &&
    only.length > 1 &&
    (vector === 'title_doc' || only.every((a) => a.weights === EVERY_WEIGHT))
  );
}

/** The clauses met on the paper's id (`c0`), with the summed score (`score`). */
function clausesMet(
  clauses: readonly PostingAtom[][],
  vector: SearchVector,
  params: ClauseParams,
  newest: string | null = null,
) {
  const starts = clauses.map((_, c) => clauses.slice(0, c).reduce((n, k) => n + k.length, 0));
  // A word alone in a clause of its own: every paper met holds it (in some column), so a prefix's range
  // reads only its papers' postings.
  const plain = clauses.findIndex(
    (k) => k.length === 1 && k[0]?.phrase === undefined && k[0]?.prefix !== true,
  );
  let within: string | null = null;
  const parts = clauses.map((clause, c) => {
    const narrowed = plain !== -1 && plain !== c && clause[0]?.prefix === true;
    if (narrowed && within === null) within = params.term(starts[plain] ?? 0);
    const sql = clauseSql(
      clause,
      starts[c] ?? 0,
      vector,
      params,
      newestOnly(clauses, vector) ? newest : null,
      narrowed ? within : null,
    );
    return sql;
  });
  const [first = '', ...rest] = parts;
  const joins = rest.map((p, i) => `\n  JOIN (${p}) c${i + 1} ON c${i + 1}.paper_id = c0.paper_id`).join('');
  return { from: `(${first}) c0${joins}`, score: ['c0.s', ...rest.map((_, i) => `c${i + 1}.s`)].join(' + ') };
}

/** The paper's id filters test when they read no papers row, and when they do (as `d`). */
export const POSTINGS_CLAUSE_ID = 'c0.paper_id';
export const POSTINGS_PAPERS_ID = 'd.id';

/**
 * The window's SQL over `clauses`, whose words and their idf are parameters `params` names (atom by atom,
 * in order); `$1` ts_rank's weights, `$2` the window, `$3`/`$4` the page; `filters` test the paper's id
 * `filterId`, the papers row `d` joined only when they test its id (POSTINGS_PAPERS_ID). The clauses
 * meet on the paper's id, so the newest matches of common words are found without reading older ones.
 * `counted` false: the page alone, without how many the window held or match in all (SearchReader.best).
 */
export function POSTINGS_WINDOW(
  clauses: readonly PostingAtom[][],
  vector: SearchVector,
  filters: string,
  params: ClauseParams,
  filterId: string,
  counted = true,
): string {
  // Unfiltered: a filter may pass only papers deep in every word's list.
  const { from, score } = clausesMet(clauses, vector, params, filters === '' ? '$2' : null);
  const row = filterId === POSTINGS_PAPERS_ID ? '\n  JOIN papers d ON d.id = c0.paper_id' : '';
  const papers = filters === '' ? '' : `${row} WHERE TRUE${filters}`;
  // Nobody reads the counts (related papers' 20,000 candidates, the best titles and joined forms): the
  // window is not kept apart to count its rows, nor a phrase's matches read again to count them all.
  if (!counted) {
    return `
SELECT w.paper_id AS "paperId", w.score::float8 AS score FROM (
  SELECT c0.paper_id, ${score} AS score FROM ${from}${papers}
  ORDER BY c0.paper_id DESC LIMIT $2) w
ORDER BY score DESC, w.paper_id LIMIT $3 OFFSET $4`;
  }
  // A full window's total is estimated past the exact count (pg-search-estimate.ts), so a phrase's matches
  // are read no further than the window ("task specific" at 10x: positions of 16,000 papers checked to
  // count 6,630 matches, where the newest 5,000 lie among the newest 12,000).
  return `
WITH w AS MATERIALIZED (
  SELECT c0.paper_id, ${score} AS score FROM ${from}${papers}
  ORDER BY c0.paper_id DESC LIMIT $2)
SELECT w.paper_id AS "paperId", w.score::float8 AS score, count(*) OVER ()::integer AS matched,
  min(w.paper_id) OVER () AS lowest
FROM w ORDER BY score DESC, w.paper_id LIMIT $3 OFFSET $4`;
}

/**
 * How many papers `clauses` match, all of them (`$1` ts_rank's weights, which nothing reads here): the
 * postings are read through the key alone, where the vectors' GIN matches were each checked on their
 * table page (a corrected typo's 20,000 matches at 10x, 100 ms under load).
 */
export function POSTINGS_COUNT(clauses: readonly PostingAtom[][], params: ClauseParams): string {
  const { from } = clausesMet(clauses, 'doc', params);
  return `SELECT count(*)::integer AS n FROM ${from}`;
}

/** How many papers `clauses` match, up to `$2` (`$1` ts_rank's weights, which nothing reads here). */
export function POSTINGS_HITS(clauses: readonly PostingAtom[][], params: ClauseParams): string {
  // Counted up to `$2`: the newest `$2` papers of each word hold `$2` of the clause's when it has them.
  const { from } = clausesMet(clauses, 'doc', params, '$2');
  return `SELECT count(*)::integer AS n FROM (SELECT 1 FROM ${from} LIMIT $2) x`;
}

/**
 * Whether a paper holds any of the words `$1` (in any column) but not the word `$2` (anywhere), as 0 or
 * 1: FtsSearch asks it of a prefix's completions (is the prefix a word every paper holding a longer form
 * holds?). Each posting of the longer words probes the word's postings by key and the first paper
 * without it answers, where the vectors' GIN index matched every longer form's papers and read each one's
 * vector out of TOAST to rule the word out (107 ms for "student"'s completions at 10x under load). The
 * probe kept a subquery (OFFSET 0): as an anti join the planner, misjudging a common word's postings,
 * read them once and compared every pair (295 against 9 ms for "student" at 6x).
 * The longer words are probed rarest first (the vocabulary's counts, a subquery kept in that order), one
 * word's postings after another's: a word held apart from the prefix is as likely among the rare ones,
 * which cost a probe a paper, and the search stops at the first paper found. In the key's order "training"'s
 * one such word, "trainingset", came after "trainingfree" (3,141 papers at 4x): 3,832 probes, against
 * some 460 rarest first.
 */
export const POSTINGS_ANY_WITHOUT = `
SELECT count(*)::integer AS n FROM (SELECT 1
  FROM (SELECT w.word FROM search_words w WHERE w.word = ANY($1::text[]) ORDER BY w.papers, w.word OFFSET 0) w
  CROSS JOIN LATERAL (SELECT 1 FROM search_postings p WHERE p.word = w.word
    AND NOT EXISTS (SELECT 1 FROM search_postings x WHERE x.word = $2::text AND x.paper_id = p.paper_id OFFSET 0)
    LIMIT 1) y
  LIMIT 1) z`;
