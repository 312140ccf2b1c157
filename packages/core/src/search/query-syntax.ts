import { isArxivId, normaliseArxivId } from '../arxiv-id.ts';
import { isYmd } from '../dates.ts';
import { CoreError } from '../errors.ts';

/**
 * The search box language, shared by server and browser:
 *
 *   graph neural "message passing" topic:reinforcement-learning cat:cs.LG author:"Jane Doe" from:2026-04-01
 *
 * Free words are searched with prefix and typo tolerance; quoted words must appear together. `topic:` and
 * `cat:` (or `category:`) may repeat or list values with commas, and any of them matches; each `author:`
 * must match; `from:`/`to:` bound the listing date, both ends included. An unknown `word:` is plain text,
 * so "arXiv:2604.01234" or "ratio 3:1" still search. A filter with nothing after its colon (half typed) is
 * ignored rather than refused.
 *
 * A search that is only an arXiv id (2605.08013, 2605.08013v2, hep-th/9901001, arXiv:2605.08013) or an
 * arxiv.org abs, pdf or html address names one paper: `paperId` holds it, and search answers that paper
 * alone, whatever the filters say.
 */
export interface ParsedQuery {
  /** Free words, filters and phrases removed, single-spaced. */
  text: string;
  /** Topic slugs; a paper matches if it carries any of them or a narrower topic. */
  topics: string[];
  /** arXiv categories ("cs.LG") or whole archives ("cs"); a paper matches any of its categories. */
  categories: string[];
  /** Author names; every one must match an author of the paper. */
  authors: string[];
  /** Listing date bounds, YYYY-MM-DD, inclusive. */
  from: string | null;
  to: string | null;
  /** Quoted phrases from the free text. */
  phrases: string[];
  /** The paper the free text names on its own (normal form, no version); null when it names none. */
  paperId: string | null;
}

export type QueryChipKind = 'phrase' | 'topic' | 'category' | 'author' | 'from' | 'to';

/** One removable filter of a query, for a chip row under the search box. */
export interface QueryChip {
  kind: QueryChipKind;
  /** "Topic", "Category", … */
  label: string;
  value: string;
  /** The query with this chip removed, to put back in the box when the chip is dismissed. */
  without: string;
}

type FilterKey = 'topic' | 'category' | 'author' | 'from' | 'to';

const FILTER_KEYS: ReadonlyMap<string, FilterKey> = new Map([
  ['topic', 'topic'],
  ['cat', 'category'],
  ['category', 'category'],
  ['author', 'author'],
  ['from', 'from'],
  ['to', 'to'],
]);

const KEY_PREFIX = /^([A-Za-z]+):/;

export function emptyQuery(): ParsedQuery {
  return {
    text: '',
    topics: [],
    categories: [],
    authors: [],
    from: null,
    to: null,
    phrases: [],
    paperId: null,
  };
}

/** A quoted run starting at `start` (the opening quote): its text and where reading continues. */
function readQuoted(input: string, start: number): { value: string; end: number } {
  const close = input.indexOf('"', start + 1);
  // An unclosed quote runs to the end: the user is still typing it.
  const end = close === -1 ? input.length : close + 1;
  return { value: collapse(input.slice(start + 1, close === -1 ? input.length : close)), end };
}

function readWord(input: string, start: number): { value: string; end: number } {
  let end = start;
  while (end < input.length && !/\s/.test(input.charAt(end))) end++;
  return { value: input.slice(start, end), end };
}

function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function listValues(value: string): string[] {
  return value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}

function checkedDate(key: 'from' | 'to', value: string): string {
  if (!isYmd(value)) {
    throw new CoreError(
      'invalid-input',
      `The ${key}: filter needs a listing date written like 2026-04-01, not "${value}".`,
    );
  }
  return value;
}

function addUnique(list: string[], values: readonly string[]): void {
  for (const v of values) if (!list.includes(v)) list.push(v);
}

function applyFilter(query: ParsedQuery, key: FilterKey, value: string): void {
  switch (key) {
    case 'topic':
      addUnique(query.topics, listValues(value.toLowerCase()));
      return;
    case 'category':
      addUnique(query.categories, listValues(value));
      return;
    case 'author':
      addUnique(query.authors, [value]);
      return;
    case 'from':
      query.from = checkedDate('from', value);
      return;
    case 'to':
      query.to = checkedDate('to', value);
      return;
  }
}

/**
 * Bounds on one search, so one request cannot hold the search thread for seconds: a reader's search is a
 * handful of words; a pasted abstract is not a search.
 */
export const MAX_QUERY_CHARS = 500;
export const MAX_QUERY_TERMS = 32;

/**
 * Reads a search box. Throws CoreError 'invalid-input' naming the filter when a date is malformed, and
 * naming the limit when the query is longer than MAX_QUERY_CHARS or has more than MAX_QUERY_TERMS parts.
 */
export function parseQuery(input: string): ParsedQuery {
  if (input.length > MAX_QUERY_CHARS) {
    throw new CoreError(
      'invalid-input',
      `A search can be at most ${MAX_QUERY_CHARS} characters long (this one has ${input.length}); keep its key words.`,
    );
  }
  const query = emptyQuery();
  const words: string[] = [];
  let i = 0;
  while (i < input.length) {
    if (/\s/.test(input.charAt(i))) {
      i++;
      continue;
    }
    if (input.charAt(i) === '"') {
      const quoted = readQuoted(input, i);
      if (quoted.value) addUnique(query.phrases, [quoted.value]);
      i = quoted.end;
      continue;
    }
    const prefix = KEY_PREFIX.exec(input.slice(i));
    const key = prefix?.[1] ? FILTER_KEYS.get(prefix[1].toLowerCase()) : undefined;
    if (prefix && key) {
      const valueStart = i + prefix[0].length;
      const read =
        input.charAt(valueStart) === '"' ? readQuoted(input, valueStart) : readWord(input, valueStart);
      if (read.value) applyFilter(query, key, read.value);
      i = read.end;
      continue;
    }
    const word = readWord(input, i);
    words.push(word.value);
    i = word.end;
  }
  query.text = words.join(' ');
  if (query.phrases.length === 0) query.paperId = paperIdOf(query.text);
  const parts =
    words.length +
    query.phrases.length +
    query.topics.length +
    query.categories.length +
    query.authors.length;
  if (parts > MAX_QUERY_TERMS) {
    throw new CoreError(
      'invalid-input',
      `A search can have at most ${MAX_QUERY_TERMS} words, phrases and filters (this one has ${parts}); keep its key words.`,
    );
  }
  if (query.from && query.to && query.from > query.to) {
    throw new CoreError(
      'invalid-input',
      `The from: date ${query.from} is after the to: date ${query.to}; swap them to search that range.`,
    );
  }
  return query;
}

// arXiv serves each paper's HTML rendering beside abs and pdf; the id reader knows those two.
const HTML_ADDRESS = /(arxiv\.org\/)html\//i;

/**
 * The arXiv id `text` is on its own, in any form the id reader takes plus html addresses ("arXiv: 2605.08013"
 * with a space too); null when it is anything more or less.
 */
export function paperIdOf(text: string): string | null {
  const candidate = text
    .trim()
    .replace(/^arxiv:\s+/i, 'arXiv:')
    .replace(HTML_ADDRESS, '$1abs/');
  if (candidate === '' || /\s/.test(candidate) || !isArxivId(candidate)) return null;
  return normaliseArxivId(candidate);
}

/** True when the query asks for nothing: every paper, newest first. */
export function isEmptyQuery(query: ParsedQuery): boolean {
  return (
    query.text === '' &&
    query.phrases.length === 0 &&
    query.topics.length === 0 &&
    query.categories.length === 0 &&
    query.authors.length === 0 &&
    query.from === null &&
    query.to === null
  );
}

function quoteIfNeeded(value: string): string {
  return /[\s,"]/.test(value) ? `"${value.replace(/"/g, '')}"` : value;
}

/** Writes a query back as text that `parseQuery` reads to the same query. */
export function formatQuery(query: ParsedQuery): string {
  const parts: string[] = [];
  if (query.text) parts.push(query.text);
  for (const phrase of query.phrases) parts.push(`"${phrase.replace(/"/g, '')}"`);
  for (const topic of query.topics) parts.push(`topic:${topic}`);
  for (const category of query.categories) parts.push(`cat:${category}`);
  for (const author of query.authors) parts.push(`author:${quoteIfNeeded(author)}`);
  if (query.from) parts.push(`from:${query.from}`);
  if (query.to) parts.push(`to:${query.to}`);
  return parts.join(' ');
}

function withoutItem(list: readonly string[], item: string): string[] {
  return list.filter((x) => x !== item);
}

/** The query's phrases and filters as chips, in the order the syntax lists them. */
export function describeQuery(query: ParsedQuery): QueryChip[] {
  const chips: QueryChip[] = [];
  const chip = (kind: QueryChipKind, label: string, value: string, rest: Partial<ParsedQuery>) =>
    chips.push({ kind, label, value, without: formatQuery({ ...query, ...rest }) });
  for (const p of query.phrases) chip('phrase', 'Phrase', p, { phrases: withoutItem(query.phrases, p) });
  for (const t of query.topics) chip('topic', 'Topic', t, { topics: withoutItem(query.topics, t) });
  for (const c of query.categories)
    chip('category', 'Category', c, { categories: withoutItem(query.categories, c) });
  for (const a of query.authors) chip('author', 'Author', a, { authors: withoutItem(query.authors, a) });
  if (query.from) chip('from', 'From', query.from, { from: null });
  if (query.to) chip('to', 'To', query.to, { to: null });
  return chips;
}
