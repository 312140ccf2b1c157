import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { compileForCollection, defaultTaxonomy, type TaggablePaper } from '@quire/core';
import { requireSharedData } from '../src/paths.ts';
import { loadCorpus } from '../src/replay/index.ts';
import { launchChromium, startCorpusServer } from './bench-harness.ts';

const here = dirname(fileURLToPath(import.meta.url));
const ROUNDS = 3;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

function nodeTagging(papers: TaggablePaper[]) {
  let compileMs = Infinity;
  let tagMs = Infinity;
  // CPU time beside wall time: on a machine shared with other work, wall time also counts waiting.
  let tagCpuMs = Infinity;
  let tags = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const t0 = performance.now();
    const engine = compileForCollection(defaultTaxonomy(), papers);
    const t1 = performance.now();
    const cpu = process.cpuUsage();
    tags = 0;
    for (const paper of papers) tags += engine.tag(paper).length;
    const used = process.cpuUsage(cpu);
    const t2 = performance.now();
    compileMs = Math.min(compileMs, t1 - t0);
    tagMs = Math.min(tagMs, t2 - t1);
    tagCpuMs = Math.min(tagCpuMs, (used.user + used.system) / 1000);
  }
  return { compileMs, tagMs, tagCpuMs, tags };
}

async function browserTagging(papers: TaggablePaper[]) {
  const bundle = await build({
    entryPoints: [join(here, 'browser-tagging-entry.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    minify: true,
  });
  const js = bundle.outputFiles[0]?.text ?? '';
  const json = JSON.stringify(papers);
  const server = createServer((req, res) => {
    if (req.url === '/papers.json') res.writeHead(200, { 'content-type': 'application/json' }).end(json);
    else if (req.url === '/tagging.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(js);
    else
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><script src="/tagging.js"></script>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(url);
    let best = { papers: 0, compileMs: Infinity, tagMs: Infinity, tags: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const r = await page.evaluate(
        (u) => (globalThis as unknown as { runTagging: (u: string) => Promise<typeof best> }).runTagging(u),
        `${url}/papers.json`,
      );
      if (r.tagMs < best.tagMs) best = r;
    }
    return { ...best, bundleKiB: Math.round(js.length / 1024) };
  } finally {
    await browser.close();
    server.close();
  }
}

async function topicApi() {
  const corpusServer = await startCorpusServer();
  const { server, listenMs } = corpusServer;
  try {
    const slugs = defaultTaxonomy().topics.map((t) => t.slug);
    const time = async (path: string) => {
      const t = performance.now();
      await (await fetch(`${server.url}${path}`)).json();
      return performance.now() - t;
    };
    // Tags are made in the tag thread after start; measure topics once it is done, as a long-running
    // server would be.
    const t0 = performance.now();
    await server.ready;
    const readyMs = performance.now() - t0;
    // Cold: the first request for each topic computes it; warm: repeats are answered from the cache.
    const cold: number[] = [];
    for (const slug of slugs) cold.push(await time(`/api/topics/${slug}`));
    const warm: number[] = [];
    for (let round = 0; round < 2; round++)
      for (const slug of slugs) warm.push(await time(`/api/topics/${slug}`));
    const listCold = await time('/api/topics?weeks=12');
    const listWarm: number[] = [];
    for (let round = 0; round < 10; round++) listWarm.push(await time('/api/topics?weeks=12'));
    for (const a of [cold, warm, listWarm]) a.sort((x, y) => x - y);
    return {
      listenMs,
      readyMs,
      requests: cold.length,
      p50: percentile(cold, 50),
      p95: percentile(cold, 95),
      max: cold[cold.length - 1] ?? NaN,
      warmP95: percentile(warm, 95),
      listCold,
      listWarmP95: percentile(listWarm, 95),
    };
  } finally {
    await corpusServer.close();
  }
}

/** Tag the whole corpus against the whole taxonomy in Node and in Chromium; then time the topic API. */
export async function runTaggingBench(): Promise<Record<string, unknown>> {
  requireSharedData();
  const corpus = await loadCorpus();
  const papers: TaggablePaper[] = corpus.map((p) => ({
    id: p.id,
    title: p.title,
    abstract: p.abstract,
    categories: p.categories,
  }));
  const topics = defaultTaxonomy().topics.length;
  console.log(`tagging ${papers.length} papers against ${topics} topics (best of ${ROUNDS})`);

  const node = nodeTagging(papers);
  const nodeRate = Math.round((papers.length * 1000) / node.tagMs);
  const nodeCpuRate = Math.round((papers.length * 1000) / node.tagCpuMs);
  console.log(
    `Node:     ${nodeRate} papers/s (${node.tagMs.toFixed(0)} ms; ${nodeCpuRate} papers per CPU second; compile with corpus statistics ${node.compileMs.toFixed(0)} ms; ${(node.tags / papers.length).toFixed(2)} direct tags per paper)`,
  );

  const browser = await browserTagging(papers);
  const browserRate = Math.round((papers.length * 1000) / browser.tagMs);
  console.log(
    `Chromium: ${browserRate} papers/s (${browser.tagMs.toFixed(0)} ms; compile ${browser.compileMs.toFixed(0)} ms; bundle ${browser.bundleKiB} KiB minified)`,
  );

  const api = await topicApi();
  console.log(
    `server listening ${(api.listenMs / 1000).toFixed(1)} s after start; the whole corpus tagged (tag thread) ${(api.readyMs / 1000).toFixed(1)} s after that`,
  );
  console.log(
    `GET /api/topics/:slug, first request for each of ${api.requests} topics (uncached): p50 ${api.p50.toFixed(1)} ms, p95 ${api.p95.toFixed(1)} ms, max ${api.max.toFixed(1)} ms (target p95 < 50 ms); repeated: p95 ${api.warmP95.toFixed(1)} ms`,
  );
  console.log(
    `GET /api/topics (all ${topics} topics): first ${api.listCold.toFixed(0)} ms, repeated p95 ${api.listWarmP95.toFixed(1)} ms`,
  );
  const verdict = (rate: number) => (rate >= 10_000 ? 'meets' : 'MISSES');
  console.log(
    `tagging ${verdict(nodeRate)} the 10,000 papers/s target in Node, ${verdict(browserRate)} it in Chromium`,
  );

  return {
    papers: papers.length,
    topics,
    nodePapersPerSec: nodeRate,
    nodePapersPerCpuSec: nodeCpuRate,
    nodeCompileMs: Math.round(node.compileMs),
    browserPapersPerSec: browserRate,
    browserCompileMs: Math.round(browser.compileMs),
    tagsPerPaper: Number((node.tags / papers.length).toFixed(2)),
    serverListenSec: Number((api.listenMs / 1000).toFixed(1)),
    serverReadySec: Number((api.readyMs / 1000).toFixed(1)),
    topicApiP50Ms: Number(api.p50.toFixed(1)),
    topicApiP95Ms: Number(api.p95.toFixed(1)),
    topicApiWarmP95Ms: Number(api.warmP95.toFixed(1)),
    topicsListFirstMs: Math.round(api.listCold),
    topicsListWarmP95Ms: Number(api.listWarmP95.toFixed(1)),
  };
}
