/**
 * Where the shared arXiv recordings live, for this folder's tests only (server code must not import the
 * tests package). Same convention as tests/src/paths.ts: `../shared` beside the clone, or QUIRE_SHARED.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const arxivDataDir = resolve(process.env.QUIRE_SHARED ?? resolve(repoRoot, '../shared'), 'data/arxiv');

export const rawDir = resolve(arxivDataDir, 'raw');
export const listingsDir = resolve(arxivDataDir, 'listings');

if (!existsSync(rawDir)) {
  throw new Error(
    `The arXiv recordings were not found at ${rawDir}. Put shared/ beside the clone or set QUIRE_SHARED.`,
  );
}

/** Files under `dir` (recursively) whose name ends with `suffix`, as paths relative to `dir`, sorted. */
export function filesUnder(dir: string, suffix: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(suffix)) out.push(path);
    }
  };
  walk('');
  return out.sort();
}
