/**
 * A version entry as arXivRaw (<version version="v2"><date>…</date>) and the Kaggle snapshot
 * ({"version": "v2", "created": …}) write it, as a RawPaper version. The RFC 2822 date becomes the UTC
 * timestamp the store keeps, through core's one date reader. A date core cannot read is left out (null)
 * rather than failing the record: the paper is still worth keeping without it.
 */
import { canonicalTimestamp } from '@quire/core';
import { readOrNull } from './read-or-null.ts';

export interface WireVersion {
  version: number;
  submitted: string | null;
  size: string | null;
}

/** `label` is "v2"; when it is missing or unreadable, the entry's position (from 0) numbers it. */
export function versionEntry(
  label: string | null,
  index: number,
  date: string | null,
  size: string | null,
): WireVersion {
  return {
    version: label !== null && /^v\d+$/.test(label) ? Number(label.slice(1)) : index + 1,
    submitted: date === null ? null : readOrNull(canonicalTimestamp, date),
    size,
  };
}
