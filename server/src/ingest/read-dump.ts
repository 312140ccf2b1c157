import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import { QuireError } from '../errors.ts';
import { unreadable } from './dump-files.ts';

export type Compression = 'none' | 'gzip' | 'brotli';
export type DumpKind = 'jsonl' | 'oai-xml' | 'empty';

/**
 * An opened dump: what it holds, and its decompressed bytes as a stream of chunks (the head included, a
 * UTF-8 byte order mark left out). Bytes rather than text, so that invalid UTF-8 is seen per line.
 */
export interface OpenedDump {
  kind: DumpKind;
  compression: Compression;
  /** Kind and compression as one word for reports: "jsonl", "jsonl.br", "oai-xml.gz". */
  format: string;
  bytes: AsyncIterable<Buffer>;
}

/** The defaults of the import caps (QUIRE_IMPORT_MAX_LINE_BYTES, QUIRE_IMPORT_MAX_XML_BYTES). */
export const DEFAULT_MAX_LINE_BYTES = 1024 * 1024;
export const DEFAULT_MAX_XML_BYTES = 32 * 1024 * 1024;

// Large reads keep the per-chunk overhead of decompression and line splitting low.
const READ_CHUNK = 256 * 1024;
// Enough of the head of an XML file to hold the prolog, comments and the root element's start tag.
const XML_SNIFF = 4096;
// Leading blank space read before giving up on finding what a file holds, so a blank bomb stays bounded.
const BLANK_SNIFF = 1024 * 1024;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

const GZIP_MAGIC = [0x1f, 0x8b] as const;

async function compressionOf(path: string): Promise<Compression> {
  if (/\.gz$/i.test(path)) return 'gzip';
  // Brotli has no magic number, so only the name can say so.
  if (/\.br$/i.test(path)) return 'brotli';
  const head = Buffer.alloc(2);
  const handle = await open(path, 'r');
  try {
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1] ? 'gzip' : 'none';
  } finally {
    await handle.close();
  }
}

/**
 * Counts of compressed bytes as they are read, for progress; `passedOver` when they were read only to reach
 * the point a resumed import starts from.
 */
export type OnBytes = (bytes: number, passedOver: boolean) => void;

/**
 * Opens `path`, decompresses as its name (or gzip magic) says, and tells JSON Lines from an OAI-PMH page by
 * the first characters. With `resumeAt`, the file is JSON Lines an earlier import stored the first
 * `resumeAt` decompressed bytes of (a byte order mark not counted), and the stream begins after them.
 */
export async function openDump(path: string, onBytes: OnBytes, resumeAt = 0): Promise<OpenedDump> {
  let compression: Compression;
  try {
    compression = await compressionOf(path);
  } catch (err) {
    throw unreadable(path, err);
  }
  if (resumeAt > 0) {
    const format = `jsonl${suffixOf(compression)}`;
    return {
      kind: 'jsonl',
      compression,
      format,
      bytes: await resumedBytes(path, compression, onBytes, resumeAt),
    };
  }
  const chunks = decompressedBytes(path, compression, (n) => onBytes(n, false))[Symbol.asyncIterator]();
  const headParts: Buffer[] = [];
  let head = '';
  let headBytes = 0;
  while (head.trimStart().length === 0 || (head.trimStart().startsWith('<') && head.length < XML_SNIFF)) {
    if (headBytes >= BLANK_SNIFF && head.trimStart().length === 0) {
      await chunks.return?.(undefined);
      throw new QuireError(
        'unknown-format',
        `${path} begins with more than ${formatBytes(BLANK_SNIFF)} of blank space; it is not a dump Quire can read.`,
      );
    }
    const next = await chunks.next();
    if (next.done) break;
    let chunk = next.value;
    if (headParts.length === 0 && chunk.subarray(0, 3).equals(UTF8_BOM)) chunk = chunk.subarray(3);
    headParts.push(chunk);
    headBytes += chunk.length;
    // Only for sniffing: a character cut at the chunk's end does not matter here.
    head += chunk.toString('utf8');
  }
  let kind: DumpKind;
  try {
    kind = kindOf(path, head);
  } catch (err) {
    await chunks.return?.(undefined);
    throw err;
  }
  return { kind, compression, format: kind + suffixOf(compression), bytes: prepend(headParts, chunks) };
}

function suffixOf(compression: Compression): string {
  return compression === 'gzip' ? '.gz' : compression === 'brotli' ? '.br' : '';
}

/**
 * The decompressed text from `offset` on. A plain file is read from there; a compressed one has to be
 * decompressed from its start, but what comes before `offset` is dropped unsplit and unparsed, which is
 * several times quicker than importing it again.
 */
async function resumedBytes(
  path: string,
  compression: Compression,
  onBytes: OnBytes,
  offset: number,
): Promise<AsyncIterable<Buffer>> {
  if (compression === 'none') {
    let start: number;
    try {
      start = offset + (await bomLength(path));
    } catch (err) {
      throw unreadable(path, err);
    }
    onBytes(start, true);
    return decompressedBytes(path, compression, (n) => onBytes(n, false), start);
  }
  let passingOver = true;
  const chunks = decompressedBytes(path, compression, (n) => onBytes(n, passingOver));
  return (async function* dropped(): AsyncGenerator<Buffer> {
    let toDrop = offset;
    let first = true;
    for await (let chunk of chunks) {
      if (first && chunk.subarray(0, 3).equals(UTF8_BOM)) chunk = chunk.subarray(3);
      first = false;
      if (toDrop >= chunk.length) {
        toDrop -= chunk.length;
        continue;
      }
      if (toDrop > 0) chunk = chunk.subarray(toDrop);
      toDrop = 0;
      passingOver = false;
      yield chunk;
    }
  })();
}

async function bomLength(path: string): Promise<number> {
  const head = Buffer.alloc(3);
  const handle = await open(path, 'r');
  try {
    const { bytesRead } = await handle.read(head, 0, 3, 0);
    return bytesRead === 3 && head.equals(UTF8_BOM) ? 3 : 0;
  } finally {
    await handle.close();
  }
}

function kindOf(path: string, head: string): DumpKind {
  const start = head.trimStart();
  if (start.length === 0) return 'empty';
  if (start.startsWith('{')) return 'jsonl';
  if (start.startsWith('<')) {
    if (/<(?:[\w-]+:)?OAI-PMH[\s>]/.test(head)) return 'oai-xml';
    throw new QuireError(
      'unknown-format',
      `${path} is XML but not an OAI-PMH response; Quire imports saved OAI-PMH pages, JSON Lines dumps and the Kaggle arXiv snapshot.`,
    );
  }
  if (start.startsWith('[')) {
    throw new QuireError(
      'unknown-format',
      `${path} holds one JSON array, not JSON Lines (one paper object a line); convert it with e.g. \`jq -c '.[]'\`.`,
    );
  }
  throw new QuireError(
    'unknown-format',
    `${path} is in an unknown format: expected JSON Lines or an OAI-PMH XML page (plain, .gz or .br).`,
  );
}

async function* decompressedBytes(
  path: string,
  compression: Compression,
  onBytes: (bytes: number) => void,
  start = 0,
): AsyncGenerator<Buffer> {
  const file = createReadStream(path, { highWaterMark: READ_CHUNK, start });
  file.on('data', (chunk) => onBytes(chunk.length));
  let out: Readable = file;
  if (compression !== 'none') {
    const inflate =
      compression === 'gzip' ? createGunzip({ chunkSize: READ_CHUNK }) : createBrotliDecompress();
    // pipeline destroys both ends on failure; the error then surfaces from the iteration below.
    out = pipeline(file, inflate, () => undefined);
  }
  try {
    for await (const chunk of out) yield chunk as Buffer;
  } catch (err) {
    throw readFailure(path, compression, err);
  }
}

function readFailure(path: string, compression: Compression, err: unknown): QuireError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code ?? '';
  if (compression !== 'none' && code.startsWith('Z_')) {
    const what = compression === 'gzip' ? 'gzip' : 'brotli';
    return new QuireError('unreadable-file', `Cannot read ${path}: it is not valid ${what} data (${code}).`, {
      cause: err,
    });
  }
  if (code === 'ERR_BROTLI_DECOMPRESSION_FAILED' || code.startsWith('ERR__ERROR_FORMAT')) {
    return new QuireError('unreadable-file', `Cannot read ${path}: it is not valid brotli data.`, {
      cause: err,
    });
  }
  return unreadable(path, err);
}

async function* prepend(head: readonly Buffer[], rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  try {
    for (const chunk of head) if (chunk.length > 0) yield chunk;
    for (;;) {
      const next = await rest.next();
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // A consumer that stops early must still release the file.
    await rest.return?.(undefined);
  }
}

/**
 * The whole decompressed text of an XML page, which is parsed in one piece. Reading stops, and the file is
 * released, as soon as the page passes `maxBytes`, so a small compressed file cannot expand without bound.
 */
export async function readAll(
  chunks: AsyncIterable<Buffer>,
  path: string,
  maxBytes = DEFAULT_MAX_XML_BYTES,
): Promise<string> {
  const parts: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of chunks) {
    bytes += chunk.length;
    if (bytes > maxBytes) {
      throw new QuireError(
        'too-large',
        `${path} expands to more than ${formatBytes(maxBytes)} of XML, the most one OAI-PMH page may hold (QUIRE_IMPORT_MAX_XML_BYTES); a saved arXiv page is a few MiB. Raise the limit if the page is genuine.`,
      );
    }
    parts.push(chunk);
  }
  return Buffer.concat(parts, bytes).toString('utf8');
}

/** "1 MiB", "64 KiB", or bytes when neither is whole. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
