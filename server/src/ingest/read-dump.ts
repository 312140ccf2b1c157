import { isUtf8 } from 'node:buffer';
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
 * Opens `path`, decompresses as its name (or gzip magic) says, and tells JSON Lines from an OAI-PMH page by
 * the first characters. `onBytes` receives counts of compressed bytes as they are read, for progress.
 */
export async function openDump(path: string, onBytes: (bytes: number) => void): Promise<OpenedDump> {
  let compression: Compression;
  try {
    compression = await compressionOf(path);
  } catch (err) {
    throw unreadable(path, err);
  }
  const chunks = decompressedBytes(path, compression, onBytes)[Symbol.asyncIterator]();
  const headParts: Buffer[] = [];
  let head = '';
  let headBytes = 0;
  while (head.trimStart().length === 0 || (head.trimStart().startsWith('<') && head.length < XML_SNIFF)) {
    if (headBytes >= BLANK_SNIFF && head.trimStart().length === 0) {
      await chunks.return?.(undefined);
      throw new QuireError(
        'unknown-format',
        `${path} begins with more than ${formatBytes(BLANK_SNIFF)} of blank space; it is not a dump Quire can read.`,
        400,
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
  const suffix = compression === 'gzip' ? '.gz' : compression === 'brotli' ? '.br' : '';
  return { kind, compression, format: kind + suffix, bytes: prepend(headParts, chunks) };
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
      400,
    );
  }
  if (start.startsWith('[')) {
    throw new QuireError(
      'unknown-format',
      `${path} holds one JSON array, not JSON Lines (one paper object a line); convert it with e.g. \`jq -c '.[]'\`.`,
      400,
    );
  }
  throw new QuireError(
    'unknown-format',
    `${path} is in an unknown format: expected JSON Lines or an OAI-PMH XML page (plain, .gz or .br).`,
    400,
  );
}

async function* decompressedBytes(
  path: string,
  compression: Compression,
  onBytes: (bytes: number) => void,
): AsyncGenerator<Buffer> {
  const file = createReadStream(path, { highWaterMark: READ_CHUNK });
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
    return new QuireError(
      'unreadable-file',
      `Cannot read ${path}: it is not valid ${what} data (${code}).`,
      400,
      {
        cause: err,
      },
    );
  }
  if (code === 'ERR_BROTLI_DECOMPRESSION_FAILED' || code.startsWith('ERR__ERROR_FORMAT')) {
    return new QuireError('unreadable-file', `Cannot read ${path}: it is not valid brotli data.`, 400, {
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

/** A line left out while splitting, with the sentence that says why. */
export interface SkippedLine {
  skipped: string;
}

/** A run of consecutive lines; `first` is the 1-based number of `lines[0]` in the file. */
export interface LineRun {
  first: number;
  lines: Array<string | SkippedLine>;
}

/**
 * Splits decompressed bytes into lines, a run per chunk, in one pass: each byte is searched for a newline
 * once, and only the unfinished line's parts are kept between chunks. A line longer than `maxLineBytes` is
 * dropped as it grows (its bytes are not kept) and handed over as skipped when its newline comes. Lines are
 * decoded whole, so a character split between chunks is never mistaken for invalid UTF-8. Hand-rolled rather
 * than node:readline, which measured about a third slower on the corpus and cannot bound a line.
 */
export async function* splitLines(
  chunks: AsyncIterable<Buffer>,
  maxLineBytes = DEFAULT_MAX_LINE_BYTES,
): AsyncGenerator<LineRun> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let overlong = false;
  let next = 1;

  const finish = (last: Buffer): string | SkippedLine => {
    const tooLong = overlong || pendingBytes + last.length > maxLineBytes;
    const bytes = tooLong || pending.length === 0 ? last : Buffer.concat([...pending, last]);
    pending = [];
    pendingBytes = 0;
    overlong = false;
    return tooLong ? { skipped: tooLongLine(maxLineBytes) } : decodeLine(bytes);
  };

  for await (const chunk of chunks) {
    const lines: Array<string | SkippedLine> = [];
    let start = 0;
    let newline: number;
    while ((newline = chunk.indexOf(0x0a, start)) !== -1) {
      lines.push(finish(chunk.subarray(start, newline)));
      start = newline + 1;
    }
    if (start < chunk.length && !overlong) {
      const part = chunk.subarray(start);
      if (pendingBytes + part.length > maxLineBytes) {
        overlong = true;
        pending = [];
        pendingBytes = 0;
      } else {
        pending.push(part);
        pendingBytes += part.length;
      }
    }
    if (lines.length > 0) {
      yield { first: next, lines };
      next += lines.length;
    }
  }
  if (pendingBytes > 0 || overlong) yield { first: next, lines: [finish(Buffer.alloc(0))] };
}

function decodeLine(bytes: Buffer): string | SkippedLine {
  const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
  const line = bytes.toString('utf8', 0, end);
  // Decoding turns bad bytes into U+FFFD; only a line that has one can be invalid, so most skip the check.
  if (line.includes('\uFFFD') && !isUtf8(bytes.subarray(0, end))) {
    return {
      skipped:
        'Cannot import this dump line: it is not valid UTF-8 text. Convert the file to UTF-8 (for example `iconv -f latin1 -t utf-8`) and import it again.',
    };
  }
  return line;
}

function tooLongLine(maxLineBytes: number): string {
  return `Cannot import this dump line: it is longer than ${formatBytes(maxLineBytes)}, the longest line an import accepts (QUIRE_IMPORT_MAX_LINE_BYTES); one paper's record is a few KiB, so this is not one paper a line.`;
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
        413,
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
