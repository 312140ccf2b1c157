/**
 * Lenient readers for values found in the document. Any peer can write anything, so a reader never throws:
 * it returns null for what it cannot read and the caller skips that entry.
 */
import { isArxivId, normaliseArxivId } from '../arxiv-id.ts';
import { parseInstant } from '../dates.ts';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function readNonEmpty(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** An ISO timestamp as stored, or null. */
export function readInstant(value: unknown): string | null {
  return typeof value === 'string' && instantMs(value) !== null ? value : null;
}

/** Epoch milliseconds of a stored timestamp, null when it is not one. */
export function instantMs(value: string): number | null {
  try {
    return parseInstant(value);
  } catch {
    return null;
  }
}

/** Orders stored timestamps by the instant they name (peers may write different ISO forms). */
export function compareInstants(a: string, b: string): number {
  return (instantMs(a) ?? 0) - (instantMs(b) ?? 0);
}

export function readPositiveInt(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : null;
}

export function readStringList(value: unknown): string[] | null {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? [...value] : null;
}

/** A normalised arXiv id, or null. */
export function readPaperId(value: unknown): string | null {
  return typeof value === 'string' && isArxivId(value) ? normaliseArxivId(value) : null;
}

export interface Stamp {
  by: string;
  at: string;
}

/** `{ by, at }`: who did something and when. */
export function readStamp(value: unknown): Stamp | null {
  if (!isRecord(value)) return null;
  const by = readNonEmpty(value.by);
  const at = readInstant(value.at);
  return by !== null && at !== null ? { by, at } : null;
}

export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
