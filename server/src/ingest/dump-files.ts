import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { QuireError, errorMessage } from '../errors.ts';

/**
 * A file chosen for import, sized up front so progress can be shown against all bytes to come. A path that
 * could not even be listed carries its `error` and is reported in its place like a failed file.
 */
export interface DumpCandidate {
  path: string;
  bytes: number;
  error?: QuireError;
}

export interface ExpandedPaths {
  files: DumpCandidate[];
  /** Files left out of folders, each with the reason, for the user to see. */
  notes: string[];
}

// Corpus folders carry a manifest beside the dumps; it is JSON but not JSON Lines.
const MANIFEST_NAMES = new Set(['manifest.json']);
const COMPRESSED = /\.(gz|br)$/i;
const DUMP_NAME = /\.(jsonl|ndjson|json|xml)$/i;

/** Whether a file met inside a folder looks like something to import (named files are always tried). */
export function looksLikeDump(name: string): boolean {
  if (name.startsWith('.')) return false;
  if (MANIFEST_NAMES.has(name.toLowerCase())) return false;
  return DUMP_NAME.test(name.replace(COMPRESSED, '')) || COMPRESSED.test(name);
}

export function isManifest(path: string): boolean {
  return MANIFEST_NAMES.has(basename(path).toLowerCase());
}

/**
 * Turns the paths a user named into the files to import, in order: named files as given, folders expanded
 * recursively with their files sorted by path, so weekly dumps named by date import oldest first.
 */
export async function expandPaths(paths: readonly string[]): Promise<ExpandedPaths> {
  const out: ExpandedPaths = { files: [], notes: [] };
  for (const path of paths) {
    let info;
    try {
      info = await stat(path);
    } catch (err) {
      out.files.push({ path, bytes: 0, error: unreadable(path, err) });
      continue;
    }
    if (info.isDirectory()) {
      await expandFolder(path, out);
    } else if (isManifest(path)) {
      out.notes.push(`${path}: skipped, a corpus manifest rather than a dump.`);
    } else {
      out.files.push({ path, bytes: info.size });
    }
  }
  return out;
}

async function expandFolder(folder: string, out: ExpandedPaths): Promise<void> {
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (err) {
    out.files.push({ path: folder, bytes: 0, error: unreadable(folder, err) });
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const { name } = entry;
    const path = join(folder, name);
    if (entry.isDirectory()) {
      await expandFolder(path, out);
      continue;
    }
    if (isManifest(path)) {
      out.notes.push(`${path}: skipped, a corpus manifest rather than a dump.`);
    } else if (!looksLikeDump(name)) {
      out.notes.push(
        `${path}: skipped, not a dump file (expected .jsonl, .json or .xml, optionally .gz or .br).`,
      );
    } else {
      try {
        out.files.push({ path, bytes: (await stat(path)).size });
      } catch (err) {
        out.files.push({ path, bytes: 0, error: unreadable(path, err) });
      }
    }
  }
}

export function unreadable(path: string, err: unknown): QuireError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const reason =
    code === 'ENOENT'
      ? 'no such file or folder'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : errorMessage(err);
  return new QuireError('unreadable-file', `Cannot read ${path}: ${reason}.`, { cause: err });
}
