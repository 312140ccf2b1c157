/**
 * The synthetic corpus of `pnpm bench scale` (issue 11): the real listing corpus N times. Copy 0 is the corpus
 * as recorded, so N = 1 is the corpus the other benches use; copy k ≥ 1 is listed 63·k days earlier (the
 * corpus spans 63 days, nine whole weeks, so the copies tile the calendar without overlap and keep each
 * paper's weekday, which arXiv's listing schedule cares about), has fresh ids, and carries one made-up word
 * of its own at the end of every abstract, so the vocabulary grows with N as a real archive's does.
 */
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { addDays } from '@quire/core';
import type { CorpusPaper } from '../src/replay/corpus.ts';

/** Days between two copies: the corpus's own span, 2026-03-16 to 2026-05-17. */
export const SHIFT_DAYS = 63;

// arXiv has never numbered more than about 31,000 papers in a month (the corpus's highest is 2603.30045),
// so numbers from 50000 up cannot meet a real id. Five-digit numbers are valid from 1501 on, which leaves
// 134 months of 50,000 below 2602: room for about 250 copies.
const FIRST_NUMBER = 50_000;
const PER_MONTH = 50_000;
const LAST_MONTH = { year: 26, month: 2 };
const FIRST_FIVE_DIGIT_MONTH = 1501;

/**
 * The id of the `serial`-th synthetic paper (0-based over every copy ≥ 1): months count back from 2602,
 * each holding numbers 50000–99999. Valid arXiv-style ids the store accepts, never a real paper's.
 */
export function syntheticId(serial: number): string {
  const monthsBack = Math.floor(serial / PER_MONTH);
  const months = LAST_MONTH.year * 12 + (LAST_MONTH.month - 1) - monthsBack;
  const yy = Math.floor(months / 12);
  const mm = (months % 12) + 1;
  if (yy * 100 + mm < FIRST_FIVE_DIGIT_MONTH) {
    throw new Error(
      `Synthetic paper ${serial} would need an id before ${FIRST_FIVE_DIGIT_MONTH}; use fewer copies (about 250 at most).`,
    );
  }
  const number = FIRST_NUMBER + (serial % PER_MONTH);
  return `${String(yy).padStart(2, '0')}${String(mm).padStart(2, '0')}.${number}`;
}

const CONSONANTS = 'bdfgklmnprstvz';
const VOWELS = 'aeiou';

/**
 * Copy k's made-up word: "vex" and then k written in consonant-vowel syllables ("vexba", "vexbe", …), one
 * syllable per 70 copies. No English word or arXiv term looks like it, so each copy adds one new term.
 */
export function madeUpWord(copy: number): string {
  if (!Number.isInteger(copy) || copy < 1)
    throw new Error(`Copy ${copy} has no made-up word (copies from 1).`);
  const base = CONSONANTS.length * VOWELS.length;
  let syllables = '';
  let n = copy;
  do {
    const s = n % base;
    syllables = `${CONSONANTS[Math.floor(s / VOWELS.length)] ?? ''}${VOWELS[s % VOWELS.length] ?? ''}${syllables}`;
    n = Math.floor(n / base);
  } while (n > 0);
  return `vex${syllables}`;
}

/** Copy `copy` of the corpus (0 is the corpus itself), in the corpus's own line shape. */
export function* corpusCopy(papers: readonly CorpusPaper[], copy: number): Generator<CorpusPaper> {
  if (copy === 0) {
    yield* papers;
    return;
  }
  const word = madeUpWord(copy);
  const first = (copy - 1) * papers.length;
  for (const [i, paper] of papers.entries()) {
    yield {
      ...paper,
      id: syntheticId(first + i),
      date: addDays(paper.date, -SHIFT_DAYS * copy),
      abstract: `${paper.abstract} ${word}`,
    };
  }
}

/** The id copy `copy` gives the paper at `index` of the corpus. */
export function copyId(papers: readonly CorpusPaper[], copy: number, index: number): string {
  const paper = papers[index];
  if (!paper) throw new Error(`The corpus has no paper ${index}.`);
  return copy === 0 ? paper.id : syntheticId((copy - 1) * papers.length + index);
}

/**
 * Writes one copy as gzipped JSON Lines (level 1: the bench measures the import, not the compression) and
 * returns the lines written.
 */
export async function writeCopy(papers: readonly CorpusPaper[], copy: number, path: string): Promise<number> {
  let lines = 0;
  // Chunks of about a thousand lines: one write per line would make the stream the slow part.
  const chunks = (function* () {
    let chunk: string[] = [];
    for (const paper of corpusCopy(papers, copy)) {
      chunk.push(JSON.stringify(paper));
      lines += 1;
      if (chunk.length === 1000) {
        yield `${chunk.join('\n')}\n`;
        chunk = [];
      }
    }
    if (chunk.length > 0) yield `${chunk.join('\n')}\n`;
  })();
  await pipeline(Readable.from(chunks), createGzip({ level: 1 }), createWriteStream(path));
  return lines;
}
