import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompress } from 'node:zlib';
import { listingsDir, requireSharedData } from '../paths.ts';

/** One line of the shared listing corpus (see shared/data/arxiv/PROVENANCE.md, part 1). */
export interface CorpusPaper {
  /** arXiv id without version. */
  id: string;
  /** Listing (announcement) date, YYYY-MM-DD. */
  date: string;
  title: string;
  authors: string[];
  /** Primary category first. */
  categories: string[];
  comment: string | null;
  abstract: string;
  /** Which crawler repository supplied the record. */
  source: string;
}

export interface CorpusFileStats {
  records: number;
  first_date: string;
  last_date: string;
  uncompressed_bytes: number;
  sha256_uncompressed: string;
  per_day: Record<string, number>;
  primary_category: Record<string, number>;
}

export interface CorpusManifest {
  format: string;
  window: { first: string; last: string };
  files: Record<string, CorpusFileStats>;
  total_records: number;
}

/** Lookups the replay handlers share; built once per process. */
export interface CorpusIndex {
  /** Sorted by listing date, then id: the OAI datestamp order. */
  byDatestamp: readonly CorpusPaper[];
  byId: ReadonlyMap<string, CorpusPaper>;
  byDate: ReadonlyMap<string, readonly CorpusPaper[]>;
}

const inflate = promisify(brotliDecompress);

let corpusPromise: Promise<CorpusPaper[]> | undefined;
let indexPromise: Promise<CorpusIndex> | undefined;
let manifestCache: CorpusManifest | undefined;

/**
 * Every corpus record, decompressed and parsed once per process. Callers share the same array, so they must
 * not mutate it. A failed load is not cached, so a later call can retry after the data is put in place.
 */
export function loadCorpus(): Promise<CorpusPaper[]> {
  corpusPromise ??= readCorpus().catch((error: unknown) => {
    corpusPromise = undefined;
    throw error;
  });
  return corpusPromise;
}

/** MANIFEST.json beside the weekly files; synchronous so tests can use it while collecting cases. */
export function corpusManifest(): CorpusManifest {
  if (!manifestCache) {
    requireSharedData();
    manifestCache = JSON.parse(readFileSync(join(listingsDir, 'MANIFEST.json'), 'utf8')) as CorpusManifest;
  }
  return manifestCache;
}

export function corpusIndex(): Promise<CorpusIndex> {
  indexPromise ??= loadCorpus().then(buildIndex, (error: unknown) => {
    indexPromise = undefined;
    throw error;
  });
  return indexPromise;
}

async function readCorpus(): Promise<CorpusPaper[]> {
  requireSharedData();
  const names = (await readdir(listingsDir)).filter((name) => name.endsWith('.jsonl.br')).sort();
  // Decompress the weeks concurrently: brotli runs on the libuv pool, which roughly halves the load time.
  const texts = await Promise.all(
    names.map(async (name) => (await inflate(await readFile(join(listingsDir, name)))).toString('utf8')),
  );
  const papers: CorpusPaper[] = [];
  texts.forEach((text, fileIndex) => {
    let lineNumber = 0;
    for (const line of text.split('\n')) {
      lineNumber += 1;
      if (line.trim() === '') continue;
      papers.push(checkRecord(JSON.parse(line), `${names[fileIndex]}:${lineNumber}`));
    }
  });
  return papers;
}

/** A cheap shape check, so a damaged data folder fails loudly here rather than as odd XML later. */
function checkRecord(value: unknown, where: string): CorpusPaper {
  const record = value as Partial<CorpusPaper> | null;
  const ok =
    record !== null &&
    typeof record === 'object' &&
    typeof record.id === 'string' &&
    typeof record.date === 'string' &&
    /^\d{4}-\d{2}-\d{2}$/.test(record.date) &&
    typeof record.title === 'string' &&
    typeof record.abstract === 'string' &&
    Array.isArray(record.authors) &&
    Array.isArray(record.categories) &&
    record.categories.length > 0 &&
    (record.comment === null || typeof record.comment === 'string');
  if (!ok) throw new Error(`Unexpected corpus record at ${where}`);
  return record as CorpusPaper;
}

function buildIndex(papers: CorpusPaper[]): CorpusIndex {
  const byDatestamp = [...papers].sort((a, b) =>
    a.date === b.date ? compareStrings(a.id, b.id) : compareStrings(a.date, b.date),
  );
  const byId = new Map<string, CorpusPaper>();
  const byDate = new Map<string, CorpusPaper[]>();
  for (const paper of byDatestamp) {
    byId.set(paper.id, paper);
    const day = byDate.get(paper.date);
    if (day) day.push(paper);
    else byDate.set(paper.date, [paper]);
  }
  return { byDatestamp, byId, byDate };
}

export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
