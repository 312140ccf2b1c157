import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { normalisePaper } from '@quire/core';
import { harvestTarget } from '@quire/server/harvest/harvest-target';
import { importPaths } from '@quire/server/ingest/import-dumps';
import { parseOaiResponse } from '@quire/server/sources/oai-pmh';
import { openStore } from '@quire/server/store/open-store';
import { listingsDir, requireSharedData } from '../src/paths.ts';
import { startReplayServer } from '../src/replay/index.ts';

const PAGE_SIZE = 1000;
const ROUNDS = 3;

function rate(n: number, ms: number): number {
  return Math.round((n * 1000) / ms);
}

/** Dump import of the whole corpus, then OAI-PMH pages: bare parse vs parse + normalise + store. */
export async function runIngestBench(): Promise<Record<string, unknown>> {
  requireSharedData();
  const dir = mkdtempSync(join(tmpdir(), 'quire-bench-'));
  try {
    // 1. The whole listing corpus through the dump importer, into a fresh SQLite file.
    const store = openStore(join(dir, 'import.db'));
    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
    const t0 = performance.now();
    const report = await importPaths(store, [listingsDir]);
    const importMs = performance.now() - t0;
    clearInterval(sampler);
    store.close();
    const papers = report.totals.inserted;
    console.log(
      `dump import: ${papers} papers from ${report.totals.files} files in ${(importMs / 1000).toFixed(2)} s = ${rate(papers, importMs)} papers/s (peak RSS ${Math.round(peakRss / 2 ** 20)} MiB)`,
    );

    // 2. OAI-PMH pages generated from the same corpus by the replay server, fetched once into memory.
    const replay = await startReplayServer({ oaiPageSize: PAGE_SIZE });
    const pages: string[] = [];
    try {
      let url: string | null = `${replay.oaiUrl}?verb=ListRecords&metadataPrefix=arXiv&set=cs`;
      while (url) {
        const body: string = await (await fetch(url)).text();
        pages.push(body);
        const token: string | undefined = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(body)?.[1];
        url = token ? `${replay.oaiUrl}?verb=ListRecords&resumptionToken=${encodeURIComponent(token)}` : null;
      }
    } finally {
      await replay.close();
    }
    const records = pages.reduce((n, p) => n + (p.match(/<record>/g)?.length ?? 0), 0);
    const megabytes = pages.reduce((n, p) => n + Buffer.byteLength(p), 0) / 2 ** 20;
    console.log(`OAI-PMH: ${pages.length} pages, ${records} records, ${megabytes.toFixed(1)} MiB`);

    const bare = new XMLParser();
    let bareMs = Infinity;
    let ingestMs = Infinity;
    let parseOnlyMs = Infinity;
    for (let round = 0; round < ROUNDS; round++) {
      let t = performance.now();
      for (const page of pages) bare.parse(page);
      bareMs = Math.min(bareMs, performance.now() - t);

      t = performance.now();
      for (const page of pages) parseOaiResponse(page);
      parseOnlyMs = Math.min(parseOnlyMs, performance.now() - t);

      const pageStore = openStore(join(dir, `pages-${round}.db`));
      const target = harvestTarget(pageStore);
      t = performance.now();
      for (const [i, page] of pages.entries()) {
        const parsed = parseOaiResponse(page);
        const batch = parsed.records.map((r) => normalisePaper(r.paper));
        await target.storeBatches([{ papers: batch, countsAsListing: true }], {
          key: 'bench',
          value: { page: i },
        });
      }
      ingestMs = Math.min(ingestMs, performance.now() - t);
      pageStore.close();
    }
    const ratio = bareMs / ingestMs;
    console.log(
      `bare fast-xml-parser parse:     ${rate(records, bareMs)} records/s (${bareMs.toFixed(0)} ms)`,
    );
    console.log(
      `OAI parse (parseOaiResponse):   ${rate(records, parseOnlyMs)} records/s (${parseOnlyMs.toFixed(0)} ms)`,
    );
    console.log(
      `OAI page ingestion (parse + normalise + store): ${rate(records, ingestMs)} records/s (${ingestMs.toFixed(0)} ms)`,
    );
    console.log(
      `page ingestion keeps ${(ratio * 100).toFixed(0)}% of bare-parse throughput (target ≥ 50%); best of ${ROUNDS}`,
    );
    console.log(`whole corpus import ${importMs < 10_000 ? 'meets' : 'MISSES'} the 10 s target`);

    return {
      importPapers: papers,
      importSeconds: Number((importMs / 1000).toFixed(2)),
      importPapersPerSec: rate(papers, importMs),
      importPeakRssMiB: Math.round(peakRss / 2 ** 20),
      oaiRecords: records,
      bareParseRecordsPerSec: rate(records, bareMs),
      oaiParseRecordsPerSec: rate(records, parseOnlyMs),
      oaiIngestRecordsPerSec: rate(records, ingestMs),
      ingestToBareRatio: Number(ratio.toFixed(3)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
