/**
 * `tsx tests/bench/search-calls-trace.ts <postgres url | sqlite file> [query]`: where a search's time goes.
 * Runs `pnpm bench scale`'s 40 searches (or the one given) in process over a search reader of that database
 * (a kept bench cluster: `--keep DIR`, started by hand; or the SQLite file a `--keep DIR` left, DIR/quire.db),
 * twice, and prints each search's time, the CPU this process spent on it (a SQLite reader's statements
 * included: steadier than the time under load), how many store calls it made and how many of them ran one
 * after another (`depth`: the round trips on its path);
 * SEARCH_TRACE_CALLS=1 lists each call with its start and duration (ms from the search's start), so the
 * gaps between calls show the search's own work. First the time of one round trip (a one-row read).
 */
import { loadavg } from 'node:os';
import { defaultTaxonomy } from '@quire/core';
import { FtsSearch } from '@quire/server/search/fts-search';
import { openPgSearchReader } from '@quire/server/store/pg/pg-search-reader';
import { openSearchReader } from '@quire/server/store/search-reader';
import type { SearchReader } from '@quire/server/store/search-reader';
import { loadCorpus } from '../src/replay/corpus.ts';
import { benchQueries } from './scale-queries.ts';

const loadAvg = (): string =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const url = process.argv[2] ?? '';
const only = process.argv[3];
const reader = /^postgres(ql)?:/.test(url) ? await openPgSearchReader(url) : openSearchReader(url);

interface Call {
  name: string;
  start: number;
  ms: number;
}
let calls: Call[] = [];
let t0 = 0;
const traced: SearchReader = new Proxy(reader, {
  get(target, prop, recv) {
    const v = Reflect.get(target, prop, recv) as unknown;
    if (typeof v !== 'function') return v;
    return (...args: unknown[]) => {
      const start = performance.now();
      const out = (v as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      const done = () => {
        calls.push({ name: String(prop), start: start - t0, ms: performance.now() - start });
      };
      // The search awaits `out` itself (and sees its failure); this only times it.
      out.then(done, done);
      return out;
    };
  },
});
// One round trip, unloaded by a statement.
const rt: number[] = [];
for (let i = 0; i < 50; i++) {
  const s = performance.now();
  await reader.indexedPapers();
  rt.push(performance.now() - s);
}
rt.sort((a, b) => a - b);
console.log(
  `round trip (indexedPapers) p50 ${rt[25]?.toFixed(2)} p95 ${rt[47]?.toFixed(2)} ms; load ${loadAvg()}`,
);

const search = new FtsSearch(traced, defaultTaxonomy());
for (const q of ['learning model', '"neural network"', 'netwrok', 'Wei Zhang'])
  await search.search(q, { limit: 20, offset: 0 });
const queries = benchQueries(await loadCorpus()).filter((b) => only === undefined || b.q === only);
const totals: number[] = [];
for (const pass of ['cold', 'warm']) {
  for (const { q, kind } of queries) {
    calls = [];
    const cpu0 = process.cpuUsage();
    t0 = performance.now();
    const r = await search.search(q, { limit: 20, offset: 0 });
    const ms = performance.now() - t0;
    // This process's CPU: under load, steadier than the wall time (SQLite's statements run in it).
    const { user, system } = process.cpuUsage(cpu0);
    await new Promise((res) => setImmediate(res));
    if (pass === 'cold') totals.push(ms);
    // Sequential depth: calls whose start is after every earlier call ended.
    calls.sort((a, b) => a.start - b.start);
    let depth = 0;
    let end = -1;
    for (const c of calls) {
      if (c.start >= end) depth++;
      end = Math.max(end, c.start + c.ms);
    }
    console.log(
      `${pass} ${ms.toFixed(1).padStart(7)} ms  cpu ${((user + system) / 1000).toFixed(1).padStart(6)} ms  calls ${String(calls.length).padStart(2)} depth ${String(depth).padStart(2)} ` +
        `${kind.padEnd(6)} ${q} (${r.total})${process.env.SEARCH_TRACE_CALLS ? `\n    ${calls.map((c) => `${c.name}@${c.start.toFixed(0)}:${c.ms.toFixed(1)}`).join(' ')}` : ''}`,
    );
  }
}
totals.sort((a, b) => a - b);
console.log(
  `cold p50 ${totals[Math.ceil(0.5 * totals.length) - 1]?.toFixed(1)} p95 ${totals[Math.ceil(0.95 * totals.length) - 1]?.toFixed(1)} ms; load ${loadAvg()}`,
);
await reader.close();
