/**
 * `pnpm bench <name>`: each benchmark prints readable lines and, as its very last line, one JSON object
 * with its figures (e.g. {"bench":"ingest",…}) so scripts can read the results.
 */
import { runHardeningBench } from './hardening-bench.ts';
import { runIngestBench } from './ingest-bench.ts';
import { runNeighboursBench } from './neighbours-bench.ts';
import { runScaleBench } from './scale-bench.ts';
import { runSyncBench } from './sync-bench.ts';
import { runTaggingBench } from './tagging-bench.ts';
import { runWebBench } from './web-bench.ts';

// Each gets the arguments after its name (`pnpm bench scale --copies 10`).
const BENCHES: Record<string, (args: string[]) => Promise<Record<string, unknown>>> = {
  hardening: runHardeningBench,
  ingest: runIngestBench,
  neighbours: runNeighboursBench,
  scale: runScaleBench,
  sync: runSyncBench,
  tagging: runTaggingBench,
  web: runWebBench,
};

const name = process.argv[2];
const bench = name ? BENCHES[name] : undefined;
if (!bench) {
  console.error(`Usage: pnpm bench <${Object.keys(BENCHES).join('|')}>`);
  process.exit(2);
}
const figures = await bench(process.argv.slice(3));
console.log(JSON.stringify({ bench: name, ...figures }));
// Sockets and timers of libraries under test (y-websocket's) may linger; the figures are out, so stop.
process.exit(0);
