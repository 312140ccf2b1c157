/**
 * `tsx tests/bench/search-total-check.ts <DIR/quire.db | postgres url>`: how honest the totals past the
 * exact count are. Runs `pnpm bench scale`'s 40 searches over a kept store (a SQLite file, or a kept bench
 * cluster started by hand: see search-calls-trace.ts) twice, once as the server reads it
 * (exact up to EXACT_TOTAL_UP_TO, past it estimated) and once counting every match, and prints each
 * search's total both ways, whether it is told as exact or as about so many, and the ratio told / exact;
 * last the spread of the ratios of those told as about so many. Read-only: the store is not changed.
 * The engine's own total is read before the search rounds it (every total past the cap is told rounded).
 */
import { loadavg } from 'node:os';
import { defaultTaxonomy } from '@quire/core';
import { FtsSearch } from '@quire/server/search/fts-search';
import { openPgSearchReader } from '@quire/server/store/pg/pg-search-reader';
import {
  EXACT_TOTAL_UP_TO,
  openSearchReader,
  type RankedPage,
  type SearchReader,
} from '@quire/server/store/search-reader';
import { loadCorpus } from '../src/replay/corpus.ts';
import { benchQueries } from './scale-queries.ts';

const store = process.argv[2] ?? '';
if (store === '') throw new Error('Give the kept store: DIR/quire.db, or a postgres:// URL.');
const open = async (options: { exactTotalUpTo?: number } = {}): Promise<SearchReader> =>
  /^postgres(ql)?:/.test(store) ? openPgSearchReader(store, options) : openSearchReader(store, options);

/** A reader whose last ranked page is kept, so the engine's own total is seen before the search rounds it. */
function recording(reader: SearchReader) {
  const pages: RankedPage[] = [];
  const proxy = new Proxy(reader, {
    get(target, prop, recv) {
      const v = Reflect.get(target, prop, recv) as unknown;
      if (typeof v !== 'function') return v;
      // The reader's methods read its private fields: called on the reader, not on the proxy.
      if (prop !== 'ranked') return (v as (...a: unknown[]) => unknown).bind(target);
      return async (...args: unknown[]) => {
        const ranked = v as (...a: unknown[]) => Promise<RankedPage>;
        const page = await ranked.apply(target, args);
        pages.push(page);
        return page;
      };
    },
  });
  return { reader: proxy, last: () => pages.at(-1), forget: () => void pages.splice(0) };
}

const served = recording(await open());
const counting = recording(await open({ exactTotalUpTo: Number.MAX_SAFE_INTEGER }));
const asServed = new FtsSearch(served.reader, defaultTaxonomy());
const allCounted = new FtsSearch(counting.reader, defaultTaxonomy());
const ratios: number[] = [];
const load = loadavg().map((l) => l.toFixed(1));
console.log(
  `exact up to ${EXACT_TOTAL_UP_TO}; told / exact for each of the bench's searches; load ${load.join(' ')}`,
);
for (const { q, kind } of benchQueries(await loadCorpus())) {
  served.forget();
  counting.forget();
  const told = await asServed.search(q, { limit: 20, offset: 0 });
  await allCounted.search(q, { limit: 20, offset: 0 });
  // The whole count when the search ranked (a few matches, or filters alone, are counted whole anyway).
  const exact = counting.last()?.total ?? told.total;
  // Past the exact cap the told total is "about" a two-figure number: a count rounded, or an estimate
  // from the window's reach when the window did not hold every match.
  const how = told.totalEstimated ? 'about' : 'exact';
  const ratio = exact === 0 ? 1 : told.total / exact;
  if (told.totalEstimated) ratios.push(ratio);
  console.log(
    `${kind.padEnd(6)} ${q.padEnd(60)} told ${String(told.total).padStart(8)} exact ${String(exact).padStart(8)} ` +
      `ratio ${ratio.toFixed(3)}  ${how}`,
  );
}
ratios.sort((a, b) => a - b);
const at = (f: number) => ratios[Math.min(ratios.length - 1, Math.floor(f * ratios.length))]?.toFixed(3);
console.log(`told as about: ${ratios.length} searches, ratio min ${at(0)} median ${at(0.5)} max ${at(1)}`);
await served.reader.close();
await counting.reader.close();
