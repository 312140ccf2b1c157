import { createPaperIndex, loadPaperIndex, toSearchDoc, type SearchDoc } from '@quire/core';
import type MiniSearch from 'minisearch';
import type { PaperView } from '../api/types.ts';

/** A paper as the device keeps it, with the moment it was stored (the index's watermark reads it). */
export interface KeptPaper {
  paper: PaperView;
  storedAt: number;
}

/** The index as persisted in IndexedDB. */
export interface IndexSnapshot {
  /**
   * The app build that wrote it. minisearch keeps no tokenizer in its JSON, so an index written by another
   * build (whose core may tokenize differently) is rebuilt rather than trusted.
   */
  format: string;
  json: string;
  /** The papers indexed, so papers dropped from the store while the index was not loaded can be dropped. */
  ids: string[];
  /** The newest `storedAt` indexed: papers stored at or after it are indexed again on load. */
  watermark: number;
}

/** What loading an index must do to match the kept papers. */
export interface CatchUpPlan {
  /** Kept papers the index lacks, or holds in an older version. */
  index: string[];
  /** Indexed papers no longer kept. */
  discard: string[];
}

/**
 * The offline search index: the server's minisearch configuration (core's `paperIndexOptions`, so the same
 * query syntax and field weighting) over the papers this device keeps, updated paper by paper as papers are
 * stored or evicted, and saved as a snapshot so a start only indexes what changed since.
 */
export class OfflineIndex {
  readonly index: MiniSearch<SearchDoc>;
  readonly format: string;
  readonly #ids: Set<string>;
  #watermark: number;
  /** Changed since the last snapshot. */
  dirty = false;

  private constructor(
    format: string,
    index: MiniSearch<SearchDoc>,
    ids: Iterable<string>,
    watermark: number,
  ) {
    this.format = format;
    this.index = index;
    this.#ids = new Set(ids);
    this.#watermark = watermark;
  }

  static empty(format: string): OfflineIndex {
    return new OfflineIndex(format, createPaperIndex(), [], 0);
  }

  /** The snapshot's index, or an empty one when it was written by another build or cannot be read. */
  static restore(format: string, snapshot: IndexSnapshot | undefined): OfflineIndex {
    if (!snapshot || snapshot.format !== format) return OfflineIndex.empty(format);
    try {
      return new OfflineIndex(format, loadPaperIndex(snapshot.json), snapshot.ids, snapshot.watermark);
    } catch {
      // A damaged snapshot costs one rebuild from the kept papers, not a broken search page.
      return OfflineIndex.empty(format);
    }
  }

  get size(): number {
    return this.#ids.size;
  }

  get watermark(): number {
    return this.#watermark;
  }

  has(id: string): boolean {
    return this.#ids.has(id);
  }

  /** Adds papers, or replaces the indexed version of papers already in. */
  upsert(kept: readonly KeptPaper[]): void {
    for (const { paper, storedAt } of kept) {
      const doc = toSearchDoc(
        paper,
        paper.tags.map((t) => t.slug),
      );
      if (this.#ids.has(paper.id)) this.index.replace(doc);
      else this.index.add(doc);
      this.#ids.add(paper.id);
      if (storedAt > this.#watermark) this.#watermark = storedAt;
      this.dirty = true;
    }
  }

  remove(ids: readonly string[]): void {
    for (const id of ids) {
      if (!this.#ids.delete(id)) continue;
      this.index.discard(id);
      this.dirty = true;
    }
  }

  /**
   * `keptIds`: every paper the store keeps; `storedSinceWatermark`: those stored at or after the watermark
   * (a paper stored in the same millisecond as the last one indexed may be missing, so the boundary is
   * indexed again: cheap, and replacing is idempotent).
   */
  plan(keptIds: readonly string[], storedSinceWatermark: readonly string[]): CatchUpPlan {
    const kept = new Set(keptIds);
    const index = new Set(storedSinceWatermark.filter((id) => kept.has(id)));
    for (const id of keptIds) if (!this.#ids.has(id)) index.add(id);
    const discard = [...this.#ids].filter((id) => !kept.has(id));
    return { index: [...index], discard };
  }

  snapshot(): IndexSnapshot {
    return {
      format: this.format,
      json: JSON.stringify(this.index),
      ids: [...this.#ids],
      watermark: this.#watermark,
    };
  }
}
