import { PaperIndexBuilder, toSearchDoc, type Author, type SearchDoc, type Taxonomy } from '@quire/core';
import type MiniSearch from 'minisearch';
import type { DocRow, SearchSource } from './search-source.ts';

/** A finished build and the point in the store's history it reflects. */
export interface BuiltIndex {
  index: MiniSearch<SearchDoc>;
  /** The newest `updated_at` when the build began: rows written later are read by the next refresh. */
  watermark: string;
  /** Ids indexed whose `updated_at` equals the watermark, so a refresh does not index them again. */
  atWatermark: Set<string>;
  /** SQLite's data_version when the build began. */
  version: number;
}

export function searchDocOf(row: DocRow, tags: readonly string[]): SearchDoc {
  return toSearchDoc(
    {
      id: row.id,
      title: row.title,
      abstract: row.abstract,
      authors: JSON.parse(row.authors) as Author[],
      categories: JSON.parse(row.categories) as string[],
      primaryCategory: row.primary_category,
      listingDate: row.listing_date,
    },
    tags,
  );
}

/**
 * One build of the whole index, a slice of papers per `step`. Whatever is written while it runs is at or
 * after the watermark taken at the start, so the refresh that follows picks it up.
 */
export class IndexBuild {
  readonly #source: SearchSource;
  readonly #taxonomy: Taxonomy;
  readonly #builder = new PaperIndexBuilder();
  readonly #watermark: string;
  readonly #version: number;
  readonly #atWatermark = new Set<string>();
  #cursor = '';

  constructor(source: SearchSource, taxonomy: Taxonomy) {
    this.#source = source;
    this.#taxonomy = taxonomy;
    this.#version = source.dataVersion();
    this.#watermark = source.maxUpdatedAt();
  }

  /** Indexes up to `limit` more papers; true when every paper has been read. */
  step(limit: number): boolean {
    const { rows, tags } = this.#source.slice(this.#cursor, limit, this.#taxonomy);
    for (const row of rows) {
      this.#builder.add(searchDocOf(row, tags.get(row.id) ?? []));
      if (row.updated_at === this.#watermark) this.#atWatermark.add(row.id);
    }
    const last = rows.at(-1);
    if (last) this.#cursor = last.id;
    return rows.length < limit;
  }

  finish(): BuiltIndex {
    return {
      index: this.#builder.finish(),
      watermark: this.#watermark,
      atWatermark: this.#atWatermark,
      version: this.#version,
    };
  }
}
