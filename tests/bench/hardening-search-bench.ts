/**
 * The search section of `pnpm bench hardening` (issue 10): the slowest searches the query limits still
 * allow, on the real server over the whole corpus. For each, its time over a few runs, then the latency of
 * `/api/ping` while that search runs in a loop: search has its own thread, so the main one should keep
 * answering. Last, a question of the longest allowed length to a topic's ask, which runs on the main thread.
 * First of all, start-up: the server starts over an untagged store, and pings are timed while it tags the
 * whole corpus (the search index is on disk, written with the papers).
 */
import { MAX_QUERY_CHARS, MAX_QUERY_TERMS } from '@quire/core';
import { startCorpusServer } from './bench-harness.ts';

const RUNS = Number(process.env.HARDENING_SEARCH_RUNS ?? 5);
const LOOP_MS = Number(process.env.HARDENING_SEARCH_LOOP_MS ?? 3000);
const PING_EVERY_MS = 20;
const ASK_TOPIC = 'rl-for-llm-agents';

const COMMON = (
  'learning model models data based method methods results network neural training performance using ' +
  'show approach propose problem large language deep task tasks new system time analysis framework ' +
  'information two different high paper'
).split(' ');

const LONG_COMMON = (
  'representations optimization generalization reinforcement convolutional distributions probabilistic ' +
  'classification interpretability understanding transformers architectures computational experimental ' +
  'performance significantly demonstrate improvements effectiveness particularly applications ' +
  'environments benchmarks information frameworks approaches evaluation efficiency challenging ' +
  'language state-of-the-art outperforms'
).split(' ');

interface Case {
  key: string;
  shape: string;
  query: string;
}

function fill(words: string[], chars: number): string {
  // The 32 words, each lengthened by repeating its own letters until the query is `chars` long.
  const base = words.join(' ');
  const extra = Math.max(0, chars - base.length);
  const per = Math.floor(extra / words.length);
  return words.map((w, i) => w + w.repeat(3).slice(0, per + (i < extra % words.length ? 1 : 0))).join(' ');
}

function wordsUpTo(words: string[], chars: number): string {
  let out = '';
  for (const w of words) if (out.length + w.length + 1 <= chars) out = out ? `${out} ${w}` : w;
  return out;
}

const CASES: Case[] = [
  {
    key: 'commonWords',
    shape: `${MAX_QUERY_TERMS} very common words`,
    query: COMMON.slice(0, MAX_QUERY_TERMS).join(' '),
  },
  {
    key: 'longCommonWords',
    shape: `${MAX_QUERY_TERMS} long common words`,
    query: LONG_COMMON.slice(0, MAX_QUERY_TERMS).join(' '),
  },
  {
    key: 'letters',
    shape: `${MAX_QUERY_TERMS} one- and two-letter words ("b c d … ab ac")`,
    query: [...'bcdefghijklmnopqrstuvwxyz', 'ab', 'ac', 'ad', 'ag', 'al', 'ap', 'ar']
      .slice(0, MAX_QUERY_TERMS)
      .join(' '),
  },
  {
    key: 'prefixes',
    shape: `${MAX_QUERY_TERMS} three-letter prefixes ("lea mod dat …")`,
    query: COMMON.slice(0, MAX_QUERY_TERMS)
      .map((w) => w.slice(0, 3))
      .join(' '),
  },
  {
    key: 'mixed',
    shape: '22 common words, 6 phrases, 1 topic, 3 categories, a date',
    query: [
      ...COMMON.slice(0, 22),
      '"language model" "reinforcement learning" "neural network" "large language" "deep learning" "training data"',
      'topic:reinforcement-learning cat:cs.LG,cs.AI,cs.CL from:2000-01-01',
    ].join(' '),
  },
  {
    key: 'rareLongWords',
    shape: '8 long misspelt words, no paper has all (two-typo retry, then any-word retry)',
    query:
      'reprsentaton optimizaton generalizaton reinforcment convolutinal distributon probabilisitc qzxwvkjhgfdp',
  },
  {
    key: 'maxLength',
    shape: `${MAX_QUERY_TERMS} common words stretched to ${MAX_QUERY_CHARS} characters`,
    query: fill(COMMON.slice(0, MAX_QUERY_TERMS), MAX_QUERY_CHARS),
  },
];

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function timed(url: string): Promise<{ ms: number; status: number; body: unknown }> {
  const t0 = performance.now();
  const res = await fetch(url);
  const body: unknown = await res.json();
  return { ms: performance.now() - t0, status: res.status, body };
}

interface Load {
  runs: number[];
  status: number;
  body: unknown;
  ping: { p50: number; p99: number; max: number; count: number };
  loopRequests: number;
}

/** RUNS timed requests, then the request in a loop for LOOP_MS while a second loop pings. */
async function underLoad(base: string, url: string): Promise<Load> {
  const first = await timed(url); // warm-up
  const runs: number[] = [];
  for (let n = 0; n < RUNS; n += 1) runs.push((await timed(url)).ms);
  runs.sort((a, b) => a - b);
  let done = false;
  let loopRequests = 0;
  const loop = (async () => {
    while (!done) {
      await timed(url);
      loopRequests += 1;
    }
  })();
  const pings: number[] = [];
  const end = performance.now() + LOOP_MS;
  while (performance.now() < end) {
    const started = performance.now();
    pings.push((await timed(`${base}/api/ping`)).ms);
    await sleep(Math.max(0, PING_EVERY_MS - (performance.now() - started)));
  }
  done = true;
  await loop;
  pings.sort((a, b) => a - b);
  return {
    runs,
    status: first.status,
    body: first.body,
    ping: {
      p50: percentile(pings, 50),
      p99: percentile(pings, 99),
      max: pings[pings.length - 1] ?? NaN,
      count: pings.length,
    },
    loopRequests,
  };
}

/** Pings every PING_EVERY_MS from listening until /api/ready says 200: start-up work must not hold them up. */
async function warmUp(base: string): Promise<{ readyMs: number; ping: Load['ping'] }> {
  const t0 = performance.now();
  const pings: number[] = [];
  for (;;) {
    const started = performance.now();
    pings.push((await timed(`${base}/api/ping`)).ms);
    const res = await fetch(`${base}/api/ready`);
    await res.body?.cancel();
    if (res.status === 200) break;
    await sleep(Math.max(0, PING_EVERY_MS - (performance.now() - started)));
  }
  const readyMs = performance.now() - t0;
  pings.sort((a, b) => a - b);
  const ping = {
    p50: percentile(pings, 50),
    p99: percentile(pings, 99),
    max: pings[pings.length - 1] ?? NaN,
    count: pings.length,
  };
  return { readyMs, ping };
}

const ms = (n: number): string => `${n.toFixed(1)} ms`;

function line(load: Load): string {
  const search = `${ms(percentile(load.runs, 50))} p50, ${ms(load.runs[load.runs.length - 1] ?? NaN)} max`;
  const p = load.ping;
  return `${search}; ping under load ${ms(p.p50)} p50, ${ms(p.p99)} p99, ${ms(p.max)} max (${p.count} pings, ${load.loopRequests} requests in the loop)`;
}

function figuresOf(load: Load, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    ...extra,
    status: load.status,
    p50Ms: percentile(load.runs, 50),
    maxMs: load.runs[load.runs.length - 1] ?? NaN,
    ping: load.ping,
  };
}

export async function runSearchHardeningBench(): Promise<Record<string, unknown>> {
  const corpus = await startCorpusServer();
  const base = corpus.server.url;
  const figures: Record<string, unknown> = {};
  try {
    const { readyMs, ping } = await warmUp(base);
    console.log(
      `Start-up over the untagged corpus: listening ${ms(corpus.listenMs)} after start; the whole corpus tagged in` +
        ` a worker thread ${(readyMs / 1000).toFixed(1)} s later; ping meanwhile ${ms(ping.p50)} p50,` +
        ` ${ms(ping.p99)} p99, ${ms(ping.max)} max (${ping.count} pings)`,
    );
    figures.startUp = { listenMs: corpus.listenMs, readyMs, ping };
    console.log(
      `Slowest allowed searches (${MAX_QUERY_CHARS} characters, ${MAX_QUERY_TERMS} parts) on the corpus` +
        ` (ready ${(readyMs / 1000).toFixed(1)} s after listening; ${RUNS} runs, then ${LOOP_MS / 1000} s in a loop, ping every ${PING_EVERY_MS} ms)`,
    );
    for (const c of CASES) {
      const load = await underLoad(base, `${base}/api/search?q=${encodeURIComponent(c.query)}`);
      const total = (load.body as { total?: number }).total;
      const found = load.status === 200 ? `${total ?? '?'} found` : `status ${load.status}`;
      console.log(`  ${c.shape} (${c.query.length} chars, ${found}): ${line(load)}`);
      figures[c.key] = figuresOf(load, { chars: c.query.length, total });
    }
    // Real words, as many as fit: ask bounds only the length, and each word is matched against every sentence.
    const question = wordsUpTo([...LONG_COMMON, ...COMMON], MAX_QUERY_CHARS);
    const ask = await underLoad(
      base,
      `${base}/api/topics/${ASK_TOPIC}/ask?q=${encodeURIComponent(question)}`,
    );
    const answers = (ask.body as { answers?: unknown[] }).answers?.length;
    const got = ask.status === 200 ? `${answers ?? '?'} answers` : `status ${ask.status}`;
    console.log(`  ask ${ASK_TOPIC}, ${question.length}-character question (${got}): ${line(ask)}`);
    figures.ask = figuresOf(ask, { chars: question.length, answers });
  } finally {
    await corpus.close(); // deletes the temp database
  }
  return { search: figures };
}
