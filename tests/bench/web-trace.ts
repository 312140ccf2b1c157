/**
 * Where the topic page's first render goes: one new-window load of the web bench's topic page under a
 * Chromium trace, printed as the page's requests (sent, answered, done) and its renderer main thread's
 * work in 100 ms slices. `tsx tests/bench/web-trace.ts [runs] [--out DIR]` (a trace JSON per run in DIR).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { requireSharedData } from '../src/paths.ts';
import { launchChromium, startCorpusServer } from './bench-harness.ts';

const TOPIC_PATH = '/topics/rl-for-llm-agents';
const SENTENCE = '[data-testid="momentum-sentence"]';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown> };
}

// Playwright's own choice (timeline, v8.execute, the CPU profiler's samples): the whole 'v8' and 'blink'
// categories slowed the page so much that the sentence did not show within the wait.
const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'v8.execute',
  'toplevel',
  'blink.user_timing',
  'loading',
];

function summarise(events: TraceEvent[], sentenceMs: number): void {
  const nav = events.find((e) => e.name === 'navigationStart' && e.cat.includes('blink.user_timing'));
  const names = new Map<string, string>();
  for (const e of events)
    if (e.name === 'thread_name' && e.args?.name) names.set(`${e.pid}:${e.tid}`, e.args.name);
  // The renderer of the page is the one that ran the navigation.
  const origin = nav?.ts ?? Math.min(...events.filter((e) => e.ts > 0).map((e) => e.ts));
  const rel = (ts: number) => Math.round((ts - origin) / 1000);
  const sends = new Map<string, { url: string; sent: number; response?: number; done?: number }>();
  for (const e of events) {
    const d = e.args?.data;
    if (!d) continue;
    const id = d.requestId as string | undefined;
    if (e.name === 'ResourceSendRequest' && id) sends.set(id, { url: String(d.url), sent: rel(e.ts) });
    const r = id ? sends.get(id) : undefined;
    if (!r) continue;
    if (e.name === 'ResourceReceiveResponse') r.response = rel(e.ts);
    if (e.name === 'ResourceFinish') r.done = rel(e.ts);
  }
  console.log(`requests (${sends.size}), ms from navigationStart: sent / response / done`);
  for (const r of [...sends.values()].sort((a, b) => a.sent - b.sent)) {
    console.log(
      `  ${r.sent}\t${r.response ?? '-'}\t${r.done ?? '-'}\t${r.url.replace(/^https?:\/\/[^/]+/, '')}`,
    );
  }
  const rendererMain = [...names.entries()].filter(([, n]) => n === 'CrRendererMain').map(([k]) => k);
  // The page's renderer main thread: the one with the most work after navigationStart.
  let main = '';
  let most = -1;
  for (const key of rendererMain) {
    const busy = events
      .filter((e) => `${e.pid}:${e.tid}` === key && e.ph === 'X' && e.ts >= origin)
      .reduce((s, e) => s + (e.dur ?? 0), 0);
    if (busy > most) [main, most] = [key, busy];
  }
  const top = events
    .filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && e.ts >= origin && e.dur)
    .sort((a, b) => a.ts - b.ts);
  // Each top-level task's children by name, in 100 ms slices.
  const slices = new Map<number, Map<string, number>>();
  const tasks = top.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask');
  const inner = top.filter((e) => e.name !== 'RunTask' && e.name !== 'ThreadControllerImpl::RunTask');
  // Self time per name: children are nested in time, so count each event's duration minus its direct children.
  const stack: TraceEvent[] = [];
  const self = new Map<TraceEvent, number>();
  for (const e of inner) {
    while (stack.length && stack[stack.length - 1]!.ts + (stack[stack.length - 1]!.dur ?? 0) <= e.ts)
      stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) self.set(parent, (self.get(parent) ?? parent.dur ?? 0) - (e.dur ?? 0));
    self.set(e, self.get(e) ?? e.dur ?? 0);
    stack.push(e);
  }
  for (const [e, us] of self) {
    const slice = Math.floor(rel(e.ts) / 100);
    const m = slices.get(slice) ?? new Map<string, number>();
    m.set(e.name, (m.get(e.name) ?? 0) + us / 1000);
    slices.set(slice, m);
  }
  const busyTasks = new Map<number, number>();
  for (const t of tasks) {
    const slice = Math.floor(rel(t.ts) / 100);
    busyTasks.set(slice, (busyTasks.get(slice) ?? 0) + (t.dur ?? 0) / 1000);
  }
  console.log(
    `renderer main thread ${names.get(main)} ${main}: busy ms per 100 ms slice, top self-time names`,
  );
  for (const slice of [...new Set([...slices.keys(), ...busyTasks.keys()])].sort((a, b) => a - b)) {
    if (slice < 0 || slice * 100 > sentenceMs + 200) continue;
    const m = slices.get(slice) ?? new Map<string, number>();
    const best = [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, 6);
    console.log(
      `  ${slice * 100}-${slice * 100 + 99}: tasks ${Math.round(busyTasks.get(slice) ?? 0)} ms; ${best.map(([n, ms]) => `${n} ${ms.toFixed(1)}`).join(', ')}`,
    );
  }
  const totals = new Map<string, number>();
  for (const [e, us] of self) {
    if (rel(e.ts) > sentenceMs) continue;
    totals.set(e.name, (totals.get(e.name) ?? 0) + us / 1000);
  }
  console.log('self time on the renderer main thread before the sentence, by name:');
  for (const [n, ms] of [...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    console.log(`  ${ms.toFixed(1)} ms\t${n}`);
  }
  // Other threads' busy time before the sentence (the browser process, network, compositor...).
  const perThread = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== 'X' || !e.dur || e.ts < origin || rel(e.ts) > sentenceMs) continue;
    if (e.name !== 'RunTask' && e.name !== 'ThreadControllerImpl::RunTask') continue;
    const key = `${e.pid}:${e.tid}`;
    perThread.set(key, (perThread.get(key) ?? 0) + e.dur / 1000);
  }
  console.log('tasks run per thread before the sentence (ms):');
  for (const [k, ms] of [...perThread.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12)) {
    console.log(`  ${ms.toFixed(0)}\t${names.get(k) ?? '?'} ${k}`);
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const outAt = args.indexOf('--out');
  const out = outAt >= 0 ? args[outAt + 1] : undefined;
  const runs = Number(args.find((a, i) => /^\d+$/.test(a) && i !== outAt + 1) ?? 1);
  if (out) mkdirSync(out, { recursive: true });
  // Without the corpus the store is empty and the topic page never shows its sentence.
  requireSharedData();
  const corpus = await startCorpusServer();
  await corpus.server.ready;
  const browser = await launchChromium();
  try {
    const url = `${corpus.server.url}${TOPIC_PATH}`;
    const warm = await browser.newPage();
    await warm.goto(url, { waitUntil: 'networkidle' });
    await warm.close();
    for (let run = 0; run < runs; run++) {
      const page = await browser.newPage();
      await page.addInitScript(`(() => {
        const watch = new MutationObserver(() => {
          const el = document.querySelector('${SENTENCE}');
          if (!el || !/\\S/.test(el.textContent ?? '')) return;
          window.__quireSentenceAt = performance.now();
          watch.disconnect();
        });
        watch.observe(document, { childList: true, subtree: true, characterData: true });
      })();`);
      await browser.startTracing(page, { categories: CATEGORIES });
      await page.goto(url);
      await page.locator(SENTENCE).filter({ hasText: /\S/ }).waitFor();
      const sentenceMs = await page.evaluate<number>('window.__quireSentenceAt ?? NaN');
      await page.waitForLoadState('networkidle');
      const trace = await browser.stopTracing();
      await page.close();
      console.log(`run ${run + 1}: sentence visible ${Math.round(sentenceMs)} ms`);
      const parsed = JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] };
      if (out) writeFileSync(join(out, `trace-${run + 1}.json`), trace);
      summarise(parsed.traceEvents, sentenceMs);
    }
  } finally {
    await browser.close();
    await corpus.close();
  }
}

await main();
