/**
 * Where a JSON Lines import stands, so that one killed part way (a 4 GB snapshot takes a while) continues
 * after its last committed batch instead of starting over. The checkpoint is written in the same
 * transaction as each batch, so it never claims a line that was not stored, and cleared when the file ends.
 */
import { createHash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { LinePosition } from './split-lines.ts';

/** What tells the file a checkpoint was made on from another one at the same path. */
export interface FileIdentity {
  size: number;
  mtimeMs: number;
  /** SHA-256 of the first HEAD_BYTES bytes on disk, in case a copy kept size and time. */
  head: string;
}

/** A checkpoint as stored: the file it belongs to, and the lines (and bytes) of it already stored. */
export interface ImportCheckpoint extends FileIdentity, LinePosition {
  path: string;
}

const HEAD_BYTES = 64 * 1024;

export function checkpointKey(path: string): string {
  return `import:${resolve(path)}`;
}

export async function identify(path: string): Promise<FileIdentity> {
  const info = await stat(path);
  const head = Buffer.alloc(Math.min(HEAD_BYTES, info.size));
  const handle = await open(path, 'r');
  try {
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
  }
  return {
    size: info.size,
    mtimeMs: info.mtimeMs,
    head: createHash('sha256').update(head).digest('hex'),
  };
}

/** Where to resume, when `saved` was made on this very file; undefined means start from the top. */
export function resumePoint(
  saved: ImportCheckpoint | undefined,
  file: FileIdentity,
): LinePosition | undefined {
  if (!saved || saved.size !== file.size || saved.mtimeMs !== file.mtimeMs || saved.head !== file.head) {
    return undefined;
  }
  if (!Number.isInteger(saved.line) || !Number.isInteger(saved.offset) || saved.offset <= 0) return undefined;
  return { line: saved.line, offset: saved.offset };
}
