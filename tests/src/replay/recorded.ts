import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, extname, join, resolve, sep } from 'node:path';
import { rawDir, requireSharedData } from '../paths.ts';
import { textReply, type Reply } from './context.ts';

/**
 * Real recorded bytes from shared/data/arxiv/raw: files as they are (`/raw/<path>`) and the recorded
 * HTTP exchanges inside the JSON fixtures, replayed with their status and headers
 * (`/recorded/<fixture file name>/<index>`).
 */

const CONTENT_TYPES: Record<string, string> = {
  '.xml': 'text/xml; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
};

const notFound = (what: string): Reply => textReply(404, 'text/plain; charset=utf-8', `Not found: ${what}\n`);

/** `relative` is the URL path after `/raw/`, still percent-encoded. */
export async function handleRawFile(relative: string): Promise<Reply> {
  let decoded: string;
  try {
    decoded = relative.split('/').map(decodeURIComponent).join('/');
  } catch {
    return notFound(relative);
  }
  const root = resolve(rawDir);
  const file = resolve(root, decoded);
  // Refuse anything that resolves outside raw/, such as `..` segments.
  if (!file.startsWith(root + sep)) return notFound(relative);
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return notFound(relative);
  const type = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
  return { status: 200, headers: [['Content-Type', type]], body: await readFile(file) };
}

/** One recorded exchange, reduced to what is replayed. */
export interface RecordedExchange {
  status: number;
  headers: Array<[string, string]>;
  body: string;
}

interface NockEntry {
  status?: number;
  response?: unknown;
  rawHeaders?: unknown;
}

export interface GoldenFile {
  url?: unknown;
  status_code?: unknown;
  body?: unknown;
}

/** Node sets these from the body it actually sends; the recorded values would lie about it. */
const HOP_BY_HOP = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive']);

let fixturesPromise: Promise<Map<string, RecordedExchange[]>> | undefined;

export async function jsonFilesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return jsonFilesUnder(path);
      return Promise.resolve(entry.name.endsWith('.json') ? [path] : []);
    }),
  );
  return nested.flat();
}

function fromNock(entries: NockEntry[]): RecordedExchange[] {
  return entries.map((entry) => {
    const raw = Array.isArray(entry.rawHeaders) ? (entry.rawHeaders as unknown[]).map(String) : [];
    const headers: Array<[string, string]> = [];
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i] ?? '';
      if (!HOP_BY_HOP.has(name.toLowerCase())) headers.push([name, raw[i + 1] ?? '']);
    }
    const body = typeof entry.response === 'string' ? entry.response : JSON.stringify(entry.response ?? '');
    return { status: entry.status ?? 200, headers, body };
  });
}

export function fromGolden(file: GoldenFile): RecordedExchange[] {
  const status = typeof file.status_code === 'number' ? file.status_code : 200;
  const body = typeof file.body === 'string' ? file.body : '';
  return [{ status, headers: [['Content-Type', 'application/atom+xml; charset=utf-8']], body }];
}

/** Every JSON fixture under raw/, by file name (the names are unique across the folders). */
export function loadRecordedFixtures(): Promise<Map<string, RecordedExchange[]>> {
  fixturesPromise ??= (async () => {
    requireSharedData();
    const fixtures = new Map<string, RecordedExchange[]>();
    for (const path of await jsonFilesUnder(rawDir)) {
      const parsed = JSON.parse(await readFile(path, 'utf8')) as unknown;
      if (Array.isArray(parsed)) fixtures.set(basename(path), fromNock(parsed as NockEntry[]));
      else if (parsed && typeof parsed === 'object') fixtures.set(basename(path), fromGolden(parsed));
    }
    return fixtures;
  })().catch((error: unknown) => {
    fixturesPromise = undefined;
    throw error;
  });
  return fixturesPromise;
}

export async function handleRecorded(name: string, index: string): Promise<Reply> {
  const exchanges = (await loadRecordedFixtures()).get(decodeURIComponent(name));
  const exchange = /^\d+$/.test(index) ? exchanges?.[Number(index)] : undefined;
  if (!exchange) return notFound(`${name}/${index}`);
  return { status: exchange.status, headers: exchange.headers, body: exchange.body };
}
