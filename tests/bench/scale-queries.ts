/**
 * The fixed requests of `pnpm bench scale`: 40 searches of the kinds people type (words, phrases, a typo, a
 * prefix being typed, authors, filters) and 40 papers to ask related papers of. They are picked from the
 * recorded corpus at evenly spaced places, not at random, so every run and every N asks the same things and
 * the figures compare.
 */
import { defaultTaxonomy } from '@quire/core';
import type { CorpusPaper } from '../src/replay/corpus.ts';
import { copyId } from './scale-corpus.ts';

export interface BenchQuery {
  kind: 'word' | 'words' | 'phrase' | 'typo' | 'prefix' | 'author' | 'name' | 'filter';
  q: string;
}

const STOPWORDS = new Set(
  (
    'about above after again against among and are based beyond between both can does each for from ' +
    'have into its more most new not only other over than that the their them then there these they ' +
    'this those through towards under using via what when where which while with within without your'
  ).split(' '),
);

/** A title's content words, lower case, in order: letters only, four or more of them, no stopwords. */
function titleWords(paper: CorpusPaper): string[] {
  return paper.title
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length >= 4 && !STOPWORDS.has(w));
}

/** What `pick` makes of papers at evenly spaced places of the corpus from `offset`, skipping its nulls. */
function spaced<T>(
  papers: readonly CorpusPaper[],
  count: number,
  offset: number,
  pick: (p: CorpusPaper) => T | null,
): T[] {
  const out: T[] = [];
  const step = Math.floor(papers.length / (count * 3));
  for (let i = offset; out.length < count && i < papers.length; i += step) {
    const paper = papers[i];
    const got = paper ? pick(paper) : null;
    if (got !== null) out.push(got);
  }
  if (out.length < count)
    throw new Error(`Only ${out.length} of ${count} bench queries found in the corpus.`);
  return out;
}

/** One typo: the two letters in the middle of the word swapped ("transformer" → "transfromer"). */
function swapMiddle(word: string): string {
  const i = Math.floor(word.length / 2) - 1;
  return `${word.slice(0, i)}${word.charAt(i + 1)}${word.charAt(i)}${word.slice(i + 2)}`;
}

function longest(words: string[]): string | null {
  return words.reduce<string | null>((best, w) => (best === null || w.length > best.length ? w : best), null);
}

/** Two-word names only: a middle initial or a particle would test the name parser, not the search. */
function plainName(paper: CorpusPaper, index: number): string | null {
  const name = paper.authors[index];
  return name && /^[A-Z][a-z]+ [A-Z][a-z]+$/.test(name) ? name : null;
}

export function benchQueries(papers: readonly CorpusPaper[]): BenchQuery[] {
  const dates = papers.map((p) => p.date).sort();
  const [first, middle, last] = [0, 0.5, 1].map(
    (f) => dates[Math.min(dates.length - 1, Math.floor(f * dates.length))] ?? '',
  ) as [string, string, string];
  const topics = defaultTaxonomy().topics;
  const topicAt = (i: number): string => topics[Math.floor((i * topics.length) / 4)]?.slug ?? '';
  const queries: BenchQuery[] = [
    ...spaced(papers, 6, 0, (p) => longest(titleWords(p))).map((q) => ({ kind: 'word' as const, q })),
    ...spaced(papers, 6, 1, (p) => {
      const words = titleWords(p);
      return words.length >= 2 ? `${words[0]} ${words[words.length - 1]}` : null;
    }).map((q) => ({ kind: 'words' as const, q })),
    ...spaced(papers, 8, 2, (p) => {
      const words = p.title.toLowerCase().split(/[^a-z]+/);
      const at = words.findIndex(
        (w, i) => w.length >= 4 && (words[i + 1]?.length ?? 0) >= 4 && !STOPWORDS.has(w),
      );
      return at === -1 ? null : `"${words[at]} ${words[at + 1]}"`;
    }).map((q) => ({ kind: 'phrase' as const, q })),
    ...spaced(papers, 4, 3, (p) => {
      const word = longest(titleWords(p));
      return word && word.length >= 7 ? swapMiddle(word) : null;
    }).map((q) => ({ kind: 'typo' as const, q })),
    ...spaced(papers, 2, 4, (p) => {
      const words = titleWords(p);
      const word = longest(words);
      return word && word.length >= 8 && words.length >= 2
        ? `${words.find((w) => w !== word) ?? ''} ${word.slice(0, 5)}`
        : null;
    }).map((q) => ({ kind: 'prefix' as const, q })),
    ...spaced(papers, 4, 5, (p) => {
      const name = plainName(p, 0);
      return name ? `author:"${name}"` : null;
    }).map((q) => ({ kind: 'author' as const, q })),
    ...spaced(papers, 2, 6, (p) => plainName(p, 1)).map((q) => ({ kind: 'name' as const, q })),
    ...spaced(papers, 8, 7, (p) => longest(titleWords(p))).map((word, i) => ({
      kind: 'filter' as const,
      q: [
        `${word} cat:${papers[0]?.categories[0] ?? 'cs.LG'}`,
        `${word} cat:cs.CV,cs.RO`,
        `topic:${topicAt(0)} ${word}`,
        `topic:${topicAt(1)}`,
        `${word} from:${middle}`,
        `${word} from:${first} to:${middle}`,
        `topic:${topicAt(2)} cat:cs.LG from:${middle} to:${last}`,
        `${word} topic:${topicAt(3)} to:${middle}`,
      ][i] as string,
    })),
  ];
  if (queries.length !== 40) throw new Error(`The bench asks 40 searches, not ${queries.length}.`);
  return queries;
}

/** 40 paper ids spread over every copy stored and over the corpus. */
export function relatedIds(papers: readonly CorpusPaper[], copies: number): string[] {
  const step = Math.floor(papers.length / 40);
  return Array.from({ length: 40 }, (_, i) => copyId(papers, i % copies, i * step + (i % step)));
}
