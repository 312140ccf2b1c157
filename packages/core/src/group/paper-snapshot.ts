/**
 * What the queue keeps of a paper: enough to list, read and export it on a device that never fetched it
 * (offline, or a member who joined later).
 */
import { absUrl, parseArxivId, pdfUrl } from '../arxiv-id.ts';
import { isYmd } from '../dates.ts';
import type { PaperEntity } from '../paper.ts';
import { normaliseText } from '../text-normalise.ts';
import { checkText, checkVersion, invalidInput } from './input-checks.ts';
import { isRecord, readPaperId, readPositiveInt, readString, readStringList } from './peer-values.ts';

export interface SnapshotTag {
  slug: string;
  name: string;
}

export interface PaperSnapshot {
  /** Normal arXiv id without version. */
  id: string;
  /** The arXiv version this snapshot shows; null when unknown. */
  version: number | null;
  title: string;
  /** Names, in order. */
  authors: string[];
  abstract: string;
  links: { abs: string; pdf: string };
  primaryCategory: string;
  categories: string[];
  /** YYYY-MM-DD; null when unknown. */
  listingDate: string | null;
  /** Topic tags, broad to narrow. */
  tags: SnapshotTag[];
  codeLinks: string[];
}

/** What snapshotting needs: a paper as the API serves it (`PaperView`) will do. */
export type SnapshotSource = Pick<
  PaperEntity,
  | 'id'
  | 'title'
  | 'authors'
  | 'abstract'
  | 'links'
  | 'primaryCategory'
  | 'categories'
  | 'listingDate'
  | 'codeLinks'
  | 'versions'
> & { tags?: readonly SnapshotTag[] };

const MAX_TITLE = 1_000;
const MAX_ABSTRACT = 20_000;
const MAX_LIST = 2_000;

export function snapshotOfPaper(paper: SnapshotSource): PaperSnapshot {
  const latest = paper.versions.reduce<number | null>((max, v) => Math.max(max ?? 0, v.version), null);
  return {
    id: paper.id,
    version: latest,
    title: paper.title,
    authors: paper.authors.map((a) => a.name),
    abstract: paper.abstract,
    links: { abs: paper.links.abs, pdf: paper.links.pdf },
    primaryCategory: paper.primaryCategory,
    categories: [...paper.categories],
    listingDate: paper.listingDate,
    tags: (paper.tags ?? []).map((t) => ({ slug: t.slug, name: t.name })),
    codeLinks: [...paper.codeLinks],
  };
}

function stringList(value: unknown, what: string): string[] {
  const list = readStringList(value);
  if (list === null) throw invalidInput(`The paper's ${what} must be a list of strings.`);
  if (list.length > MAX_LIST) throw invalidInput(`The paper has more than ${MAX_LIST} ${what}.`);
  return list.map(normaliseText).filter((s) => s !== '');
}

function isHttpUrl(url: string): boolean {
  return /^https?:\/\/\S+$/i.test(url);
}

/** Checks and normalises a snapshot from a caller; the id may carry a version ("2604.12345v2"). */
export function checkSnapshot(input: PaperSnapshot): PaperSnapshot {
  if (!isRecord(input)) throw invalidInput('The paper to save is missing; pass a paper snapshot.');
  const parsed = parseArxivId(input.id);
  const version = input.version == null ? parsed.version : checkVersion(input.version);
  const title = checkText(input.title, 'paper title', MAX_TITLE);
  const abstract = typeof input.abstract === 'string' ? input.abstract.trim() : '';
  if (abstract.length > MAX_ABSTRACT)
    throw invalidInput(`The abstract is longer than ${MAX_ABSTRACT} characters.`);
  if (input.listingDate != null && !isYmd(input.listingDate)) {
    throw invalidInput(
      `The listing date ${JSON.stringify(input.listingDate)} is not a day written YYYY-MM-DD.`,
    );
  }
  const categories = stringList(input.categories, 'categories');
  const primaryCategory = normaliseText(readString(input.primaryCategory) ?? '') || (categories[0] ?? '');
  if (!Array.isArray(input.tags)) throw invalidInput("The paper's tags must be a list of { slug, name }.");
  const tags = input.tags.map((t) => {
    if (!isRecord(t) || typeof t.slug !== 'string' || typeof t.name !== 'string') {
      throw invalidInput("The paper's tags must be a list of { slug, name }.");
    }
    return { slug: t.slug, name: t.name };
  });
  const links: Record<string, unknown> = isRecord(input.links) ? input.links : {};
  return {
    id: parsed.id,
    version,
    title,
    authors: stringList(input.authors, 'authors'),
    abstract,
    links: {
      abs: typeof links.abs === 'string' && isHttpUrl(links.abs) ? links.abs : absUrl(parsed.id),
      pdf: typeof links.pdf === 'string' && isHttpUrl(links.pdf) ? links.pdf : pdfUrl(parsed.id),
    },
    primaryCategory,
    categories:
      categories.includes(primaryCategory) || primaryCategory === ''
        ? categories
        : [primaryCategory, ...categories],
    listingDate: input.listingDate ?? null,
    tags,
    codeLinks: stringList(input.codeLinks, 'code links').filter(isHttpUrl),
  };
}

function readTags(value: unknown): SnapshotTag[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((t: unknown) =>
    isRecord(t) && typeof t.slug === 'string' && typeof t.name === 'string'
      ? [{ slug: t.slug, name: t.name }]
      : [],
  );
}

/**
 * A snapshot as stored by a peer; null without an id and a title. Optional parts that are malformed are
 * read as empty rather than losing the whole paper.
 */
export function readSnapshot(value: unknown): PaperSnapshot | null {
  if (!isRecord(value)) return null;
  const id = readPaperId(value.id);
  const title = readString(value.title);
  if (id === null || title === null || title.trim() === '') return null;
  const links: Record<string, unknown> = isRecord(value.links) ? value.links : {};
  const listingDate =
    typeof value.listingDate === 'string' && isYmd(value.listingDate) ? value.listingDate : null;
  return {
    id,
    version: readPositiveInt(value.version),
    title,
    authors: readStringList(value.authors) ?? [],
    abstract: readString(value.abstract) ?? '',
    // A peer is not trusted with link targets: only web links are kept ("javascript:" is not).
    links: {
      abs: typeof links.abs === 'string' && isHttpUrl(links.abs) ? links.abs : absUrl(id),
      pdf: typeof links.pdf === 'string' && isHttpUrl(links.pdf) ? links.pdf : pdfUrl(id),
    },
    primaryCategory: readString(value.primaryCategory) ?? '',
    categories: readStringList(value.categories) ?? [],
    listingDate,
    tags: readTags(value.tags),
    codeLinks: (readStringList(value.codeLinks) ?? []).filter(isHttpUrl),
  };
}
