/**
 * `tsx tests/bench/search-estimate-check.ts <postgres url | sqlite file>`: how near an estimated total is.
 * Runs `pnpm bench scale`'s 40 searches over the database at the URL (a kept bench cluster started by hand,
 * or a kept SQLite file, DIR/quire.db; see search-calls-trace.ts) twice, once as the server reads it (exact
 * up to EXACT_TOTAL_UP_TO, estimated past it) and once counting every match, and prints each estimated
 * total beside the exact one, their ratio, and the ratios' spread.
 */
import { loadavg } from 'node:os';
import { defaultTaxonomy } from '@quire/core';
import { FtsSearch } from '@quire/server/search/fts-search';
import { openPgSearchReader } from '@quire/server/store/pg/pg-search-reader';
import { EXACT_TOTAL_UP_TO, openSearchReader } from '@quire/server/store/search-reader';
import type { SearchReader } from '@quire/server/store/search-reader';
import { loadCorpus } from '../src/replay/corpus.ts';
import { benchQueries } from './scale-queries.ts';

const url = process.argv[2] ?? '';
const open = (exactTotalUpTo?: number): Promise<SearchReader> | SearchReader => {
  const options = exactTotalUpTo === undefined ? {} : { exactTotalUpTo };
  return /^postgres(ql)?:/.test(url) ? openPgSearchReader(url, options) : openSearchReader(url, options);
};
const served = await open();
const counted = await open(Number.MAX_SAFE_INTEGER);
const taxonomy = defaultTaxonomy();
const [estimating, counting] = [new FtsSearch(served, taxonomy), new FtsSearch(counted, taxonomy)];

const ratios: number[] = [];
console.log(
  `exact up to ${EXACT_TOTAL_UP_TO}; load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
for (const { q, kind } of benchQueries(await loadCorpus())) {
  const page = { limit: 20, offset: 0 };
  const [told, exact] = [await estimating.search(q, page), await counting.search(q, page)];
  const ratio = told.total / Math.max(1, exact.total);
  if (told.totalEstimated) ratios.push(ratio);
  console.log(
    `${kind.padEnd(6)} ${q.padEnd(60)} ${told.totalEstimated ? 'about' : '     '} ${String(told.total).padStart(7)} exact ${String(exact.total).padStart(7)}${told.totalEstimated ? `  ratio ${ratio.toFixed(3)}` : ''}`,
  );
}
ratios.sort((a, b) => a - b);
const at = (f: number) => ratios[Math.min(ratios.length - 1, Math.floor(f * ratios.length))]?.toFixed(3);
console.log(`${ratios.length} of 40 estimated; estimate/exact min ${at(0)} median ${at(0.5)} max ${at(1)}`);
await served.close();
await counted.close();
