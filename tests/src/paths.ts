import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, found from this file so tests run from any working directory. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * `../shared` beside the clone holds the real arXiv corpus and recordings; tests read it at run time and
 * nothing from it is committed. QUIRE_SHARED overrides the location.
 */
export const sharedDir = resolve(process.env.QUIRE_SHARED ?? resolve(repoRoot, '../shared'));
export const arxivDataDir = resolve(sharedDir, 'data/arxiv');
export const listingsDir = resolve(arxivDataDir, 'listings');
export const rawDir = resolve(arxivDataDir, 'raw');

export function requireSharedData(): void {
  if (!existsSync(listingsDir)) {
    throw new Error(
      `The arXiv corpus was not found at ${listingsDir}. Put the shared/ folder beside the clone or set QUIRE_SHARED.`,
    );
  }
}
