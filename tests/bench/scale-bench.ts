/**
 * `pnpm bench scale --copies N` (issue 11): Quire at N times the corpus. Builds the synthetic corpus (see
 * scale-corpus.ts) as gzipped JSON Lines in a temp folder, imports it into a fresh database through the real
 * import path and tags it as `quire import` does (timed apart), then starts `quire serve` over it in a child
 * process and, with no warm-up, times what a first visitor meets: the first `GET /api/topics`, readiness,
 * 40 searches (cold, then again warm), every topic, related papers of 40 papers; last, `/api/ping` while
 * `quire import` of one more copy runs beside the server (its import, then its tagging). Everything it made is
 * deleted when it ends, failed or interrupted, unless `--keep <dir>` asked for the database to be kept there
 * (`--engine postgres`: a PostgreSQL cluster of the bench's own in <dir>/pg, stopped at the end); `--reuse <dir>`
 * then serves that database again, on the engine it was built on, without building anything, to iterate on
 * the serving side.
 * Both leave out the import of one more copy, so a kept database holds exactly N copies. "Cold" is then a fresh
 * server over a file the OS may still cache from the last run, as it does right after a build.
 */
import type { ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  statfsSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultTaxonomy, type SearchResponseDto, type TopicSummary } from '@quire/core';
import type { ImportThreadCpu } from '@quire/server/ingest/import-dumps';
import { startCli } from '../src/harness/run-cli.ts';
import { requireSharedData } from '../src/paths.ts';
import { loadCorpus } from '../src/replay/corpus.ts';
import { syntheticId, writeCopy } from './scale-corpus.ts';
import { forgetTags, timedRetag, type TimedRetag } from './scale-retag.ts';
import {
  SCALE_ENGINES,
  keptPgData,
  startScaleEngine,
  type ScaleEngine,
  type ScaleEngineName,
} from './scale-engine.ts';
import { benchQueries, relatedIds, type BenchQuery } from './scale-queries.ts';
import {
  PING_EVERY_MS,
  latency,
  memoryOf,
  pingUntil,
  round,
  startServe,
  timedGet,
  type Latency,
  type ServeProcess,
} from './scale-server.ts';

const MiB = 1024 * 1024;
/**
 * Disk one copy takes at the bench's peak, its end: its gzipped file (17 MiB) and its share of the database,
 * tagged (93 MiB). Measured as the sum of the temp folder's files after the last import, divided by the
 * copies it holds: 117 MiB a copy at N = 1, 112 MiB at N = 10; rounded up for the write-ahead log, whose
 * size depends on when SQLite can checkpoint it.
 */
const BYTES_PER_COPY = 128 * MiB;
/** Sent the moment the server listens: a first visitor's search, which waits for the index. */
const FIRST_SEARCH = 'graph neural network';

const ms = (n: number): string => `${n.toFixed(1)} ms`;
const s = (n: number): string => `${(n / 1000).toFixed(1)} s`;
const lat = (l: Latency): string => `${ms(l.p50)} p50, ${ms(l.p95)} p95, ${ms(l.max)} max`;
const say = (line: string): void => console.log(`scale: ${line}`);

const USAGE =
  'Usage: pnpm bench scale [--copies N] [--engine sqlite|postgres] [--keep DIR | --reuse DIR [--retag]] [--verbose]   ' +
  '(N copies of the corpus, default 1; --engine postgres loads and serves a throwaway PostgreSQL; --keep ' +
  'builds in DIR and keeps the database there (PostgreSQL: its own cluster in DIR/pg), --reuse serves the ' +
  'database a --keep left in DIR, on the engine it was built on; both skip the import of one more copy; ' +
  "--verbose prints each search's cold and warm time; --reuse DIR --retag forgets the kept store's tags " +
  'and times the whole re-tag again, as after an import)';

/** What a `--keep` folder holds besides the database, so `--reuse` knows what it serves. */
const KEPT_FILE = 'scale-kept.json';

interface KeptBuild {
  copies: number;
  papers: number;
  /** Absent in what a --keep wrote before PostgreSQL could be kept: SQLite. */
  engine?: ScaleEngineName;
}

interface ScaleOptions {
  copies: number;
  /** Build here and keep it (`--keep`), or serve what a --keep left here (`--reuse`); null: a temp folder. */
  dir: string | null;
  reuse: boolean;
  engine: ScaleEngineName;
  /** Each of the 40 searches' cold and warm time, in a table (which kinds are slow). */
  verbose: boolean;
  /** With --reuse: forget the kept store's tags and re-tag it whole, timed, before serving it. */
  retag: boolean;
}

/** Says why the bench will not run, and stops before anything is made: no stack trace for a wrong option. */
function refuse(message: string): never {
  console.error(`scale: ${message}`);
  process.exit(2);
}

function parseOptions(args: readonly string[]): ScaleOptions {
  let values: {
    copies?: string;
    keep?: string;
    reuse?: string;
    engine?: string;
    verbose?: boolean;
    retag?: boolean;
  } = {};
  try {
    values = parseArgs({
      args: [...args],
      options: {
        copies: { type: 'string' },
        keep: { type: 'string' },
        reuse: { type: 'string' },
        engine: { type: 'string' },
        verbose: { type: 'boolean' },
        retag: { type: 'boolean' },
      },
      strict: true,
    }).values;
  } catch (err) {
    refuse(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
  }
  const engine = (values.engine ?? 'sqlite') as ScaleEngineName;
  if (!SCALE_ENGINES.includes(engine))
    refuse(`--engine must be one of ${SCALE_ENGINES.join(', ')}, not "${values.engine}".\n${USAGE}`);
  if (values.keep !== undefined && values.reuse !== undefined)
    refuse(`--keep and --reuse cannot go together: build once with --keep, then --reuse.\n${USAGE}`);
  if (values.reuse !== undefined) {
    const kept = readKept(values.reuse);
    const keptEngine = kept.engine ?? 'sqlite';
    if (values.copies !== undefined && Number(values.copies) !== kept.copies)
      refuse(`${values.reuse} holds ${kept.copies} copies, not ${values.copies}: leave --copies out.`);
    if (values.engine !== undefined && engine !== keptEngine)
      refuse(`${values.reuse} holds a ${keptEngine} database, not ${engine}: leave --engine out.`);
    return {
      copies: kept.copies,
      dir: values.reuse,
      reuse: true,
      engine: keptEngine,
      verbose: values.verbose ?? false,
      retag: values.retag ?? false,
    };
  }
  if (values.retag) refuse(`--retag re-tags a kept store: give it with --reuse DIR.\n${USAGE}`);
  const n = Number(values.copies ?? 1);
  if (!Number.isInteger(n) || n < 1)
    refuse(`--copies needs a whole number of at least 1, not "${values.copies}".\n${USAGE}`);
  if (values.keep !== undefined && existsSync(values.keep) && readdirSync(values.keep).length > 0)
    refuse(`--keep ${values.keep}: the folder is not empty; name a new or empty one (or --reuse it).`);
  return {
    copies: n,
    dir: values.keep ?? null,
    reuse: false,
    engine,
    verbose: values.verbose ?? false,
    retag: false,
  };
}

function readKept(dir: string): KeptBuild {
  const file = join(dir, KEPT_FILE);
  if (!existsSync(file))
    refuse(`--reuse ${dir}: no database kept there (no ${KEPT_FILE}); build one with --keep ${dir}.`);
  const kept = JSON.parse(readFileSync(file, 'utf8')) as KeptBuild;
  const store = kept.engine === 'postgres' ? keptPgData(dir) : join(dir, 'quire.db');
  if (!existsSync(store))
    refuse(`--reuse ${dir}: its database (${store}) is gone; build one with --keep ${dir}.`);
  return kept;
}

/** Refuses before writing anything when the temp folder's disk cannot hold N + 1 copies. */
function checkDisk(copies: number): void {
  const { bavail, bsize } = statfsSync(tmpdir());
  const free = bavail * bsize;
  const needed = (copies + 1) * BYTES_PER_COPY;
  if (needed > free) {
    refuse(
      `pnpm bench scale --copies ${copies} needs about ${(needed / 2 ** 30).toFixed(1)} GiB in ${tmpdir()} ` +
        `(${BYTES_PER_COPY / MiB} MiB a copy, ${copies + 1} copies), but only ${(free / 2 ** 30).toFixed(1)} GiB ` +
        'is free: free some space, set TMPDIR to a larger disk, or ask for fewer copies.',
    );
  }
  say(
    `${(free / 2 ** 30).toFixed(1)} GiB free in ${tmpdir()}, about ${(needed / 2 ** 30).toFixed(1)} GiB needed`,
  );
}

function filesBytes(...paths: string[]): number {
  return paths.reduce((sum, p) => sum + (existsSync(p) ? statSync(p).size : 0), 0);
}

async function searchPass(base: string, queries: readonly BenchQuery[]) {
  const times: number[] = [];
  let slowest = { q: '', ms: 0, total: 0 };
  const totals: number[] = [];
  for (const { q } of queries) {
    const res = await timedGet<SearchResponseDto>(`${base}/api/search?q=${encodeURIComponent(q)}`);
    if (res.status !== 200)
      throw new Error(`Search "${q}" answered ${res.status}: ${JSON.stringify(res.body)}`);
    times.push(res.ms);
    totals.push(res.body.total);
    if (res.ms > slowest.ms) slowest = { q, ms: round(res.ms), total: res.body.total };
  }
  return { latency: latency(times), slowest, noHits: totals.filter((t) => t === 0).length, times, totals };
}

/** `--verbose`: one line per search, in the order asked, so the slow kinds show. */
function sayEachSearch(
  queries: readonly BenchQuery[],
  cold: { times: number[]; totals: number[] },
  warm: { times: number[] },
): void {
  say('  cold ms  warm ms     found  kind    query');
  queries.forEach(({ kind, q }, i) => {
    const cell = (n: number | undefined, width: number) =>
      (n === undefined ? '' : n.toFixed(1)).padStart(width);
    const found = (cold.totals[i] ?? 0).toLocaleString('en-US').padStart(9);
    say(`  ${cell(cold.times[i], 7)}  ${cell(warm.times[i], 7)}  ${found}  ${kind.padEnd(6)}  ${q}`);
  });
}

async function eachTimed(urls: readonly string[]) {
  const times: number[] = [];
  let slowest = { url: '', ms: 0 };
  for (const url of urls) {
    const res = await timedGet(url);
    if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${JSON.stringify(res.body)}`);
    times.push(res.ms);
    if (res.ms > slowest.ms) slowest = { url, ms: round(res.ms) };
  }
  return { latency: latency(times), slowest };
}

/**
 * From listening until /api/ready says 200, a ping and a readiness check every PING_EVERY_MS; also when
 * tagging stopped warming (the search index is built after it).
 */
async function untilReady(base: string): Promise<{ ms: number; tagsMs: number; ping: Latency }> {
  const t0 = performance.now();
  let tagsMs: number | null = null;
  let ready!: () => void;
  const done = new Promise<void>((r) => (ready = r));
  const poll = (async () => {
    for (;;) {
      const res = await timedGet<{ warming: string[] }>(`${base}/api/ready`);
      if (tagsMs === null && !res.body.warming.includes('tags')) tagsMs = performance.now() - t0;
      if (res.status === 200) return ready();
      await new Promise((r) => setTimeout(r, PING_EVERY_MS));
    }
  })();
  const pings = await pingUntil(base, done);
  await poll;
  return { ms: performance.now() - t0, tagsMs: tagsMs ?? 0, ping: latency(pings.get('all') ?? []) };
}

/** Bytes of every file under `dir`: what the bench holds on disk at that moment. */
function diskUse(dir: string): number {
  return (
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      // A live cluster's WAL or temp file may go between the listing and the stat.
      .reduce(
        (sum, entry) =>
          sum + (statSync(join(entry.parentPath, entry.name), { throwIfNoEntry: false })?.size ?? 0),
        0,
      )
  );
}

export async function runScaleBench(args: readonly string[] = []): Promise<Record<string, unknown>> {
  const options = parseOptions(args);
  const { copies } = options;
  requireSharedData();
  if (!options.reuse) checkDisk(copies);
  if (options.dir !== null) mkdirSync(options.dir, { recursive: true });
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'quire-bench-scale-'));
  const keep = options.dir !== null;
  const children = new Set<ChildProcess>();
  // Also on Ctrl-C or a crash: a left-behind server or a 10 GB folder is worse than a lost figure.
  const cleanUp = (): void => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    if (!keep) rmSync(dir, { recursive: true, force: true });
  };
  const onSignal = (): void => {
    cleanUp();
    process.exit(130);
  };
  process.once('exit', cleanUp);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let server: ServeProcess | undefined;
  let engine: ScaleEngine | undefined;
  try {
    engine = await startScaleEngine(
      options.engine,
      join(dir, 'quire.db'),
      say,
      keep ? { dir, reuse: options.reuse } : null,
    );
    return await measure(
      engine,
      options,
      dir,
      (child) => children.add(child),
      (started) => (server = started),
    );
  } finally {
    await server?.stop();
    if (engine) await stopping(engine);
    cleanUp();
    process.off('exit', cleanUp);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    say(keep ? `kept ${dir} (pnpm bench scale --reuse ${dir}; rm -r it when done)` : `deleted ${dir}`);
  }
}

/** Steps 1 and 2: the synthetic corpus written, imported and tagged into `dbPath`, each timed. */
async function build(
  corpus: Awaited<ReturnType<typeof loadCorpus>>,
  copies: number,
  dir: string,
  engine: ScaleEngine,
): Promise<Built> {
  const corpusDir = join(dir, 'corpus');
  const extraDir = join(dir, 'one-more');
  mkdirSync(corpusDir);
  mkdirSync(extraDir);
  // 1. The synthetic corpus, and the one more copy imported while the server runs.
  let t0 = performance.now();
  let papers = 0;
  for (let copy = 0; copy < copies; copy++) {
    papers += await writeCopy(
      corpus,
      copy,
      join(corpusDir, `copy-${String(copy).padStart(3, '0')}.jsonl.gz`),
    );
  }
  const extraFile = join(extraDir, `copy-${String(copies).padStart(3, '0')}.jsonl.gz`);
  await writeCopy(corpus, copies, extraFile);
  const writeMs = performance.now() - t0;
  const corpusBytes = filesBytes(
    ...Array.from({ length: copies }, (_, c) =>
      join(corpusDir, `copy-${String(c).padStart(3, '0')}.jsonl.gz`),
    ),
  );
  say(
    `wrote ${copies} + 1 copies (${papers.toLocaleString('en-US')} papers, ${(corpusBytes / MiB).toFixed(0)} MiB gzipped) in ${s(writeMs)}`,
  );

  // 2. Import and tag, as `quire import` does (tagging as it imports, then a re-tag of what it left
  // stale), timed apart. CPU seconds are the whole process's, its threads included.
  const store = await engine.open();
  t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const report = await store.importPaths([corpusDir], {
    tagWith: defaultTaxonomy(),
    onFileDone: (file) =>
      say(`  imported ${file.path.split('/').pop()}: ${file.inserted} new, ${file.status}`),
  });
  const importMs = performance.now() - t0;
  const importCpuMs = cpuMs(cpu0);
  const inserted = report.totals.inserted;
  if (inserted !== papers)
    throw new Error(`The import stored ${inserted} of ${papers} papers; see the lines above.`);
  const taggedInImport = report.tagging?.tagged ?? 0;
  say(
    `import: ${inserted.toLocaleString('en-US')} papers in ${s(importMs)} = ${Math.round((inserted * 1000) / importMs)} papers/s ` +
      `(${taggedInImport.toLocaleString('en-US')} tagged as stored${report.tagging?.leftToRetag ? `; not tagging: ${report.tagging.leftToRetag}` : ''}), ` +
      `${s(importCpuMs)} CPU, load ${loadavg()[0]?.toFixed(1)}`,
  );
  if (report.indexCompactMs !== undefined)
    say(
      `  search index merged into one segment at the end, in ${s(report.indexCompactMs)} (counted in the import)`,
    );
  const threads = report.threadCpuMs ? threadCpu(report.threadCpuMs, importCpuMs, inserted) : null;
  if (threads) say(`  CPU by thread: ${threads.line}`);
  const { tagged, tagMs, tagCpuMs } = await timedRetag(store.tags, say);
  await store.close();
  say(
    `tagging (the re-tag after the import): ${tagged.toLocaleString('en-US')} papers in ${s(tagMs)} = ${Math.round((tagged * 1000) / Math.max(1, tagMs))} papers/s, ${s(tagCpuMs)} CPU; ` +
      `import + tag ${s(importMs + tagMs)}, ${s(importCpuMs + tagCpuMs)} CPU, load ${loadavg()[0]?.toFixed(1)}`,
  );
  return {
    papers,
    corpusBytes,
    writeMs,
    importMs,
    importCpuMs,
    inserted,
    taggedInImport,
    tagMs,
    tagCpuMs,
    tagged,
    extraFile,
    threadCpuMs: threads?.figures ?? null,
    indexCompactMs: report.indexCompactMs ?? null,
  };
}

/** `--reuse DIR --retag`: the kept store's tags forgotten, then the whole re-tag timed as after an import. */
async function retagKept(engine: ScaleEngine): Promise<TimedRetag> {
  const store = await engine.open();
  try {
    let t0 = performance.now();
    await forgetTags(store.tags);
    say(`  forgot every stored tag in ${s(performance.now() - t0)}`);
    t0 = performance.now();
    const timed = await timedRetag(store.tags, say);
    say(
      `tagging (the kept store re-tagged whole): ${timed.tagged.toLocaleString('en-US')} papers in ${s(timed.tagMs)} = ` +
        `${Math.round((timed.tagged * 1000) / Math.max(1, timed.tagMs))} papers/s, ${s(timed.tagCpuMs)} CPU, load ${loadavg()[0]?.toFixed(1)}`,
    );
    return timed;
  } finally {
    await store.close();
  }
}

/**
 * The import's CPU by thread (what the import measured of its own threads; the rest of the process's CPU
 * is V8's collector and compiler threads and libuv's, which decompresses the files), in seconds and in µs
 * a paper.
 */
function threadCpu(cpu: ImportThreadCpu, processMs: number, papers: number) {
  const parts: [string, number | null][] = [
    ['main (reads, writes)', cpu.main],
    ['parse', cpu.parse],
    ['tag', cpu.tag],
  ];
  const known = parts.reduce((sum, [, ms]) => sum + (ms ?? 0), 0);
  parts.push(['rest (GC, JIT, gunzip)', processMs - known]);
  const line = parts
    .filter((part): part is [string, number] => part[1] !== null)
    .map(([name, ms]) => `${name} ${s(ms)} (${Math.round((ms * 1000) / papers)} µs a paper)`)
    .join(', ');
  return {
    line,
    figures: {
      main: Math.round(cpu.main),
      parse: cpu.parse === null ? null : Math.round(cpu.parse),
      tag: cpu.tag === null ? null : Math.round(cpu.tag),
      rest: Math.round(processMs - known),
    },
  };
}

/** What building the database measured (steps 1 and 2). */
interface Built {
  papers: number;
  corpusBytes: number;
  writeMs: number;
  importMs: number;
  /** CPU of the whole process (threads included) over the import, and over the re-tag after it. */
  importCpuMs: number;
  tagCpuMs: number;
  /** Papers the import tagged as it stored them. */
  taggedInImport: number;
  inserted: number;
  tagMs: number;
  tagged: number;
  /** The copy imported beside the server in step 5. */
  extraFile: string;
  /** The import's CPU by thread (ms), where the system says. */
  threadCpuMs: ReturnType<typeof threadCpu>['figures'] | null;
  /** The import's end merging the search index into one segment (part of importMs), or null. */
  indexCompactMs: number | null;
}

async function measure(
  engine: ScaleEngine,
  options: ScaleOptions,
  dir: string,
  track: (child: ChildProcess) => void,
  serving: (server: ServeProcess) => void,
): Promise<Record<string, unknown>> {
  const { copies } = options;
  const loadAtStart = loadavg()[0] ?? NaN;
  const corpus = await loadCorpus();
  syntheticId(copies * corpus.length - 1); // the last id the one more copy needs: fails now if there is none
  return measureOn(engine, options, dir, corpus, track, serving, loadAtStart);
}

async function measureOn(
  engine: ScaleEngine,
  options: ScaleOptions,
  dir: string,
  corpus: Awaited<ReturnType<typeof loadCorpus>>,
  track: (child: ChildProcess) => void,
  serving: (server: ServeProcess) => void,
  loadAtStart: number,
): Promise<Record<string, unknown>> {
  const { copies } = options;
  let built: Built | null = null;
  let retagged: TimedRetag | null = null;
  if (options.reuse && options.retag) {
    say(`re-tagging the database kept in ${dir} (${copies} copies) whole, as after an import`);
    retagged = await retagKept(engine);
  } else if (options.reuse) {
    say(`serving the database kept in ${dir} (${copies} copies): nothing built, imported or tagged`);
  } else {
    built = await build(corpus, copies, dir, engine);
    if (options.dir !== null) {
      const kept: KeptBuild = { copies, papers: built.papers, engine: engine.name };
      writeFileSync(join(dir, KEPT_FILE), `${JSON.stringify(kept)}\n`);
    }
  }
  const dbBytes = await engine.bytes();
  say(
    `database (${engine.name}): ${(dbBytes / MiB).toFixed(0)} MiB (${(dbBytes / copies / MiB).toFixed(0)} MiB a copy)`,
  );

  // 3. The server, from spawn to listening, then what a first visitor meets; nothing is warmed up first.
  const server = await startServe(engine.dbPath, track, engine.env);
  serving(server);
  const served = Number(/serving (\d+) papers/.exec(server.cli.stdout)?.[1] ?? NaN);
  if (built !== null && served !== built.papers)
    throw new Error(
      `quire serve says it serves ${served} papers, not the ${built.papers} loaded into ${engine.name}: ` +
        'this build of the server does not read papers from that engine yet (the loading figures above stand).',
    );
  const base = server.url;
  const atListen = memoryOf(server.pid);
  const firstPing = await timedGet(`${base}/api/ping`);
  say(
    `server listening ${s(server.listenMs)} after spawn (first ping ${ms(firstPing.ms)}), RSS ${atListen.rssMiB} MiB`,
  );
  // The first search goes out at once and waits for the index; meanwhile the topics, then readiness.
  // Its failure is held until it is awaited, so it cannot go unhandled meanwhile.
  const firstSearch = timedGet<SearchResponseDto>(
    `${base}/api/search?q=${encodeURIComponent(FIRST_SEARCH)}`,
  ).then(
    (res) => ({ res }),
    (error: unknown) => ({ error }),
  );
  const firstTopics = await timedGet<TopicSummary[]>(`${base}/api/topics`);
  if (firstTopics.status !== 200) throw new Error(`GET /api/topics answered ${firstTopics.status}.`);
  say(
    `first GET /api/topics: ${ms(firstTopics.ms)} (${firstTopics.body.length} topics, ${Math.round(firstTopics.bytes / 1024)} KiB)`,
  );
  const ready = await untilReady(base);
  const firstOutcome = await firstSearch;
  if ('error' in firstOutcome) throw firstOutcome.error;
  const first = firstOutcome.res;
  if (first.status !== 200) throw new Error(`The first search answered ${first.status}.`);
  const atReady = memoryOf(server.pid);
  say(
    `ready ${s(ready.ms)} after listening (${s(server.listenMs + ready.ms)} after spawn; tags warm after ${s(ready.tagsMs)}, ` +
      `then the search index); ping meanwhile ${lat(ready.ping)}; ` +
      `the first search, sent on listening, took ${s(first.ms)}; RSS ${atReady.rssMiB} MiB`,
  );

  // 4. Searches, topics and related papers, each asked once (cold), the searches then again (warm).
  const queries = benchQueries(corpus);
  const cold = await searchPass(base, queries);
  say(
    `search, 40 queries right after ready: ${lat(cold.latency)}; slowest ${cold.slowest.q} (${cold.slowest.total} found); ${cold.noHits} found nothing`,
  );
  const warm = await searchPass(base, queries);
  say(`search, the same again: ${lat(warm.latency)}; slowest ${warm.slowest.q}`);
  if (options.verbose) sayEachSearch(queries, cold, warm);
  const topics = await eachTimed(firstTopics.body.map((t) => `${base}/api/topics/${t.slug}`));
  say(
    `topic API over all ${firstTopics.body.length} topics: ${lat(topics.latency)}; slowest ${topics.slowest.url.split('/').pop()}`,
  );
  const related = await eachTimed(relatedIds(corpus, copies).map((id) => `${base}/api/related/${id}`));
  say(`related papers of 40 papers: ${lat(related.latency)}`);
  const afterQueries = memoryOf(server.pid);
  say(`server RSS after the requests ${afterQueries.rssMiB} MiB, peak ${afterQueries.peakRssMiB} MiB`);

  const beside =
    built === null || options.dir !== null ? null : await importBeside(base, engine, built, track);
  if (beside === null) say('import of one more copy beside the server: left out (--keep or --reuse)');
  const afterImport = memoryOf(server.pid);
  const diskBytes = diskUse(dir);
  say(
    `the bench holds ${(diskBytes / MiB).toFixed(0)} MiB on disk; load average ${loadavg()[0]?.toFixed(1)}`,
  );

  return {
    copies,
    engine: engine.name,
    papers: built?.papers ?? null,
    reused: options.reuse,
    ...(built === null
      ? {}
      : {
          corpusGzMiB: round(built.corpusBytes / MiB),
          writeCorpusMs: Math.round(built.writeMs),
          importMs: Math.round(built.importMs),
          importIndexCompactMs: built.indexCompactMs === null ? null : Math.round(built.indexCompactMs),
          importPapersPerSec: Math.round((built.inserted * 1000) / built.importMs),
          tagMs: Math.round(built.tagMs),
          tagPapersPerSec: Math.round((built.tagged * 1000) / Math.max(1, built.tagMs)),
          importAndTagMs: Math.round(built.importMs + built.tagMs),
          taggedInImport: built.taggedInImport,
          importCpuMs: Math.round(built.importCpuMs),
          importThreadCpuMs: built.threadCpuMs,
          tagCpuMs: Math.round(built.tagCpuMs),
        }),
    ...(retagged === null
      ? {}
      : {
          retagMs: Math.round(retagged.tagMs),
          retagPapersPerSec: Math.round((retagged.tagged * 1000) / Math.max(1, retagged.tagMs)),
          retagCpuMs: Math.round(retagged.tagCpuMs),
          retagReadMs: Math.round(retagged.readMs),
          retagWriteMs: Math.round(retagged.writeMs),
        }),
    dbMiB: round(dbBytes / MiB),
    dbAfterOneMoreMiB: beside?.dbAfterMiB ?? null,
    diskMiB: round(diskBytes / MiB),
    server: {
      listenMs: Math.round(server.listenMs),
      firstPingMs: round(firstPing.ms),
      readyAfterListenMs: Math.round(ready.ms),
      tagsWarmAfterListenMs: Math.round(ready.tagsMs),
      pingUntilReady: ready.ping,
      firstSearchMs: Math.round(first.ms),
      rssMiB: {
        atListen: atListen.rssMiB,
        atReady: atReady.rssMiB,
        afterRequests: afterQueries.rssMiB,
        afterImport: afterImport.rssMiB,
        peak: afterImport.peakRssMiB,
      },
    },
    firstTopics: {
      ms: round(firstTopics.ms),
      kib: Math.round(firstTopics.bytes / 1024),
      topics: firstTopics.body.length,
    },
    search: { cold: cold.latency, warm: warm.latency, slowestCold: cold.slowest, noHits: cold.noHits },
    topic: { ...topics.latency, slowest: topics.slowest.url.split('/').pop() },
    related: related.latency,
    pingDuringImport: beside?.ping ?? null,
    // Other work on this 2-core machine skews every figure; this says how much there was.
    loadAverage: { atStart: round(loadAtStart), atEnd: round(loadavg()[0] ?? NaN) },
  };
}

/**
 * Step 5: `/api/ping` while `quire import` of one more copy runs against the same database: its import,
 * then its tagging (it prints its summary on stdout between the two).
 */
async function importBeside(
  base: string,
  engine: ScaleEngine,
  built: Built,
  track: (child: ChildProcess) => void,
) {
  const t0 = performance.now();
  const child = startCli(['import', ...engine.cliArgs, built.extraFile]);
  track(child.child);
  let taggingAt: number | null = null;
  const phase = (): string => {
    if (taggingAt === null && child.stdout.includes('Imported ')) taggingAt = performance.now();
    return taggingAt === null ? 'import' : 'tagging';
  };
  const pings = await pingUntil(base, child.done, phase);
  const result = await child.done;
  const childMs = performance.now() - t0;
  if (result.code !== 0)
    throw new Error(
      `quire import of one more copy failed (${result.code}):\n${result.stdout}${result.stderr}`,
    );
  const pingImport = latency(pings.get('import') ?? []);
  const pingTagging = latency(pings.get('tagging') ?? []);
  say(
    `quire import of one more copy beside the server: ${s(childMs)} (tagging from ${s((taggingAt ?? t0) - t0)})`,
  );
  say(`  ping while it imports: ${lat(pingImport)}, p99 ${ms(pingImport.p99)} (${pingImport.count} pings)`);
  say(
    `  ping while it tags:    ${lat(pingTagging)}, p99 ${ms(pingTagging.p99)} (${pingTagging.count} pings)`,
  );
  const dbAfterBytes = await engine.bytes();
  say(`database after it ${(dbAfterBytes / MiB).toFixed(0)} MiB`);
  return {
    dbAfterMiB: round(dbAfterBytes / MiB),
    ping: { importing: pingImport, tagging: pingTagging, childMs: Math.round(childMs) },
  };
}

/** Stops the engine's services, saying so when that fails rather than hiding the bench's own outcome. */
async function stopping(engine: ScaleEngine): Promise<void> {
  try {
    await engine.stop();
  } catch (err) {
    say(`stopping ${engine.name} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** CPU milliseconds (user + system) of this process, its threads included, since `from`. */
function cpuMs(from: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
}
