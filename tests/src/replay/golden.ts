import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { rawDir, requireSharedData } from '../paths.ts';
import { fromGolden, jsonFilesUnder, type GoldenFile } from './recorded.ts';

/** The arguments a recorded API response is matched on, with arXiv's defaults filled in. */
export function apiQueryKey(params: URLSearchParams): string {
  return JSON.stringify([
    params.get('search_query') ?? '',
    params.get('id_list') ?? '',
    params.get('start') ?? '0',
    params.get('max_results') ?? '10',
  ]);
}

/** A recorded API response and the query it answers. */
export interface GoldenFixture {
  name: string;
  key: string;
  status: number;
  body: string;
}

let goldenPromise: Promise<GoldenFixture[]> | undefined;

/** The `{url, status_code, body}` fixtures recorded from export.arxiv.org/api/query. */
export function loadGoldenFixtures(): Promise<GoldenFixture[]> {
  goldenPromise ??= (async () => {
    requireSharedData();
    const golden: GoldenFixture[] = [];
    for (const path of await jsonFilesUnder(rawDir)) {
      const parsed = JSON.parse(await readFile(path, 'utf8')) as GoldenFile | unknown[];
      if (Array.isArray(parsed) || typeof parsed.url !== 'string') continue;
      const [exchange] = fromGolden(parsed);
      if (!exchange) continue;
      const key = apiQueryKey(new URL(parsed.url).searchParams);
      golden.push({ name: basename(path), key, status: exchange.status, body: exchange.body });
    }
    return golden;
  })().catch((error: unknown) => {
    goldenPromise = undefined;
    throw error;
  });
  return goldenPromise;
}
