/**
 * One import in a process of its own, so its peak RSS (the kernel's high-water mark, not a sampled guess) is
 * the import's alone: `tsx hardening-import-child.ts <db> <file>` prints one JSON line.
 */
import { importPaths } from '@quire/server/ingest/import-dumps';
import { openStore } from '@quire/server/store/open-store';

const [dbPath, file] = process.argv.slice(2);
if (!dbPath || !file) throw new Error('usage: hardening-import-child.ts <db> <file>');
const store = openStore(dbPath);
const before = process.resourceUsage().maxRSS;
const t0 = performance.now();
const report = await importPaths(store, [file]);
const ms = performance.now() - t0;
store.close();
const [result] = report.files;
console.log(
  JSON.stringify({
    ms: Math.round(ms),
    rssBeforeMiB: Math.round(before / 1024),
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    status: result?.status,
    inserted: result?.inserted,
    skipped: result?.skipped,
    firstError: result?.errors[0] ?? null,
    failure: result?.failure ?? null,
  }),
);
