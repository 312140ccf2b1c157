/**
 * A file in the schema of Kaggle's arxiv-metadata-oai-snapshot (one JSON object a line, sorted by id), made
 * at run time from the listing corpus: copy k of the corpus is submitted 63·k days before the corpus was
 * listed (the corpus spans nine whole weeks, so copies tile the calendar and keep each paper's weekday), with
 * fresh ids. It carries what the real snapshot does: titles with arXiv's hard line wraps, an author string
 * and authors_parsed, space-separated categories, RFC 2822 version dates, update_date, DOIs, journal
 * references and licences on some papers, and a few papers with no versions at all.
 */
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { addDays, weekdayOf } from '@quire/core';
import { corpusIndex, type CorpusPaper } from './replay/corpus.ts';

/** One line of the snapshot, with the fields and spellings of the real file. */
export interface KaggleRecord {
  id: string;
  submitter: string;
  authors: string;
  title: string;
  comments: string | null;
  'journal-ref': string | null;
  doi: string | null;
  'report-no': string | null;
  categories: string;
  license: string | null;
  abstract: string;
  versions: Array<{ version: string; created: string }>;
  update_date: string;
  authors_parsed: string[][];
}

export interface KaggleSnapshot {
  lines: number;
  /** Every id in file order (which is id order). */
  ids: string[];
  /**
   * About `sampleSize` records spread over the file and a quarter as many without versions, each with the
   * corpus paper it copies.
   */
  sample: Array<{ record: KaggleRecord; source: CorpusPaper }>;
}

const SHIFT_DAYS = 63;
// Numbers from 50001 up in each month: above any arXiv has given in a month so far, so never a real paper.
const FIRST_NUMBER = 50_001;
const LICENCES = [
  null,
  'http://arxiv.org/licenses/nonexclusive-distrib/1.0/',
  'http://creativecommons.org/licenses/by/4.0/',
  'http://creativecommons.org/licenses/by-nc-sa/4.0/',
];
const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
// Lines per write: large strings keep the gzip stream's per-call overhead small.
const LINES_PER_CHUNK = 500;

/**
 * Writes `copies` copies of the corpus (26,845 papers each) to `path`, gzip-compressed, and returns what
 * a test needs to check the import.
 */
export async function writeKaggleSnapshot(
  path: string,
  copies: number,
  sampleSize = 40,
): Promise<KaggleSnapshot> {
  const corpus = (await corpusIndex()).byDatestamp;
  const total = corpus.length * copies;
  const every = Math.max(1, Math.floor(total / sampleSize));
  const ids: string[] = [];
  const sample: KaggleSnapshot['sample'] = [];
  const nextNumber = new Map<string, number>();

  function* chunks(): Generator<string> {
    let buffered: string[] = [];
    let serial = 0;
    let undated = 0;
    // Oldest copy first: submission dates then rise through the file, and with them the ids.
    for (let copy = copies; copy >= 1; copy--) {
      for (const paper of corpus) {
        const listed = addDays(paper.date, -SHIFT_DAYS * copy);
        const submitted = submissionDay(listed);
        const month = submitted.slice(2, 4) + submitted.slice(5, 7);
        const number = nextNumber.get(month) ?? FIRST_NUMBER;
        nextNumber.set(month, number + 1);
        const record = kaggleRecord(`${month}.${number}`, paper, submitted, serial);
        ids.push(record.id);
        if (serial % every === every - 1 || serial === 0) sample.push({ record, source: paper });
        else if (record.versions.length === 0 && undated < sampleSize / 4) {
          sample.push({ record, source: paper });
          undated++;
        }
        buffered.push(JSON.stringify(record));
        if (buffered.length >= LINES_PER_CHUNK) {
          yield buffered.join('\n') + '\n';
          buffered = [];
        }
        serial++;
      }
    }
    if (buffered.length > 0) yield buffered.join('\n') + '\n';
  }

  // Level 1: quick to write, and still about the real snapshot's ratio of compressed to plain.
  await pipeline(Readable.from(chunks()), createGzip({ level: 1 }), createWriteStream(path));
  return { lines: total, ids, sample };
}

/** The weekday before the listing (Friday for a Monday listing): submitted then, arXiv lists it that day. */
function submissionDay(listed: string): string {
  return addDays(listed, weekdayOf(listed) === 1 ? -3 : -1);
}

function kaggleRecord(id: string, paper: CorpusPaper, day: string, serial: number): KaggleRecord {
  // Mornings UTC, which is before arXiv's 14:00 Eastern deadline all year.
  const minutes = serial % 240;
  const v1 = rfc2822(day, 8 + Math.floor(minutes / 60), minutes % 60, serial % 60);
  const versions =
    serial % 97 === 13
      ? []
      : serial % 7 === 3
        ? [
            { version: 'v1', created: v1 },
            { version: 'v2', created: rfc2822(addDays(day, 9), 17, 2, 30) },
          ]
        : [{ version: 'v1', created: v1 }];
  const lastDay = versions.length === 2 ? addDays(day, 9) : day;
  return {
    id,
    submitter: paper.authors[0] ?? 'Anonymous',
    authors: authorLine(paper.authors),
    title: wrap(paper.title),
    comments: paper.comment,
    'journal-ref': serial % 11 === 4 ? `Proc. of the Synthetic Conference ${serial % 30}` : null,
    doi: serial % 3 === 1 ? `10.48550/arXiv.${id}` : null,
    'report-no': null,
    categories: paper.categories.join(' '),
    license: LICENCES[serial % LICENCES.length] ?? null,
    abstract: `  ${wrap(paper.abstract, '\n')}\n`,
    versions,
    update_date: versions.length === 0 ? addDays(day, 1) : lastDay,
    authors_parsed: paper.authors.map(parsedName),
  };
}

/** "A, B and C", as the snapshot writes its author strings. */
function authorLine(authors: readonly string[]): string {
  if (authors.length <= 1) return authors[0] ?? '';
  return `${authors.slice(0, -1).join(', ')} and ${authors.at(-1) ?? ''}`;
}

/** [surname, forenames, suffix]: the last word is taken as the surname. */
function parsedName(name: string): string[] {
  const cut = name.lastIndexOf(' ');
  return cut === -1 ? [name, '', ''] : [name.slice(cut + 1), name.slice(0, cut), ''];
}

/** arXiv's hard wrap at about 80 columns; title continuation lines are indented by two spaces. */
function wrap(text: string, join = '\n  '): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + word.length + 1 > 78) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.join(join);
}

/** "Mon, 2 Apr 2007 19:18:42 GMT". */
function rfc2822(day: string, hours: number, minutes: number, seconds: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const time = [hours, minutes, seconds].map((n) => String(n).padStart(2, '0')).join(':');
  return `${DAY_NAMES[weekdayOf(day)] ?? ''}, ${date} ${MONTH_NAMES[month - 1] ?? ''} ${year} ${time} GMT`;
}
