/**
 * The paper model shared by server and web. A `PaperEntity` is what the store holds and the API serves;
 * sources produce `RawPaper`s, which `normalisePaper` (paper-normalise.ts) turns into entities.
 */

export interface PaperVersion {
  /** 1 for v1. */
  version: number;
  /** ISO 8601 timestamp (UTC) or YYYY-MM-DD when a source gives only the day; null when unknown. */
  submitted: string | null;
  /** Size as the source states it ("120kb"), null when unknown. */
  size: string | null;
}

export interface Author {
  name: string;
  affiliations: string[];
}

export interface PaperLinks {
  abs: string;
  pdf: string;
}

export interface PaperEntity {
  /** Normalised arXiv id without version: "2604.12345" or "hep-th/9901001". */
  id: string;
  title: string;
  abstract: string;
  authors: Author[];
  /** Primary category first. */
  categories: string[];
  primaryCategory: string;
  /** Known versions, ascending; may be empty when a source gives none. */
  versions: PaperVersion[];
  /** Listing (announcement) date YYYY-MM-DD; null when no source has said (e.g. known only as a replacement). */
  listingDate: string | null;
  /** True when listingDate was estimated from the v1 date rather than read from a listing. */
  listingDateEstimated: boolean;
  /** v1 submission timestamp (ISO) or day, where a source gives it. */
  submittedV1: string | null;
  comment: string | null;
  doi: string | null;
  journalRef: string | null;
  license: string | null;
  links: PaperLinks;
  /** GitHub / GitLab / Hugging Face URLs named in the abstract or comment. */
  codeLinks: string[];
}

/** What a source hands to `normalisePaper`: loosely shaped, as found on the wire. */
export interface RawPaper {
  /** Any accepted id form: "2604.12345v2", "arXiv:hep-th/9901001", an abs or pdf URL. */
  id: string;
  title: string;
  abstract: string;
  /**
   * Names, or names with affiliations. A single comma/"and"-separated string is also accepted and split by
   * `splitAuthorLine` (author-lines.ts), parenthesised affiliations included.
   */
  authors: ReadonlyArray<string | { name: string; affiliations?: readonly string[] }> | string;
  /** Primary first, as an array or a space-separated string. */
  categories: readonly string[] | string;
  /** When a source names the primary separately (Atom `arxiv:primary_category`), it is moved first. */
  primaryCategory?: string | null;
  versions?: ReadonlyArray<{ version: number; submitted?: string | null; size?: string | null }>;
  listingDate?: string | null;
  listingDateEstimated?: boolean;
  submittedV1?: string | null;
  comment?: string | null;
  doi?: string | null;
  journalRef?: string | null;
  license?: string | null;
}

/** How a listing (RSS feed) announced a paper. Only `new` and `cross` count as new papers. */
export type AnnounceType = 'new' | 'cross' | 'replace' | 'replace-cross';

export function countsAsNew(type: AnnounceType): boolean {
  return type === 'new' || type === 'cross';
}
