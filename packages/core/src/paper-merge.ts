/**
 * The store's upsert rule, kept here so that the server and the tests share one definition of what a second
 * record of a known paper changes. Newer metadata wins, but a source that knows less never erases what
 * another source said, and listing dates follow the rules in `mergeListing`.
 */
import { instantOfDayOrTimestamp, isYmd } from './dates.ts';
import { CoreError } from './errors.ts';
import type { Author, PaperEntity, PaperVersion } from './paper.ts';
import { authorKey } from './text-normalise.ts';

export interface MergeOptions {
  /**
   * True when the incoming record announces the paper as new (a `new` or `cross` listing, or a source with
   * no listing at all); false for a replacement, which must not move the paper's listing date.
   */
  countsAsListing: boolean;
}

type Listing = Pick<PaperEntity, 'listingDate' | 'listingDateEstimated'>;

function known(incoming: string | null, existing: string | null): string | null {
  return incoming !== null && incoming.trim() !== '' ? incoming : existing;
}

function knownText(incoming: string, existing: string): string {
  return incoming.trim() !== '' ? incoming : existing;
}

// Some sources (RSS, the query API) list names only; affiliations another source gave must survive them.
function mergeAuthors(existing: Author[], incoming: Author[]): Author[] {
  if (incoming.length === 0)
    return existing.map((a) => ({ name: a.name, affiliations: [...a.affiliations] }));
  const affiliationsByKey = new Map<string, string[][]>();
  for (const author of existing) {
    if (author.affiliations.length === 0) continue;
    const key = authorKey(author.name);
    affiliationsByKey.set(key, [...(affiliationsByKey.get(key) ?? []), author.affiliations]);
  }
  return incoming.map((author) => {
    const affiliations =
      author.affiliations.length > 0
        ? author.affiliations
        : (affiliationsByKey.get(authorKey(author.name))?.shift() ?? []);
    return { name: author.name, affiliations: [...affiliations] };
  });
}

function mergeVersions(existing: PaperVersion[], incoming: PaperVersion[]): PaperVersion[] {
  const byNumber = new Map<number, PaperVersion>();
  for (const v of existing) byNumber.set(v.version, { ...v });
  for (const v of incoming) {
    const old = byNumber.get(v.version);
    byNumber.set(v.version, {
      version: v.version,
      submitted: v.submitted ?? old?.submitted ?? null,
      size: v.size ?? old?.size ?? null,
    });
  }
  return [...byNumber.values()].sort((a, b) => a.version - b.version);
}

function instantOrLast(value: string): number {
  try {
    return instantOfDayOrTimestamp(value);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** The earlier of two submission dates; on the same UTC day a timestamp beats a bare day, being more precise. */
function earlierSubmission(a: string, b: string): string {
  if (a.slice(0, 10) === b.slice(0, 10)) {
    if (isYmd(a)) return b;
    if (isYmd(b)) return a;
  }
  return instantOrLast(b) < instantOrLast(a) ? b : a;
}

function earliestSubmission(candidates: (string | null | undefined)[]): string | null {
  let earliest: string | null = null;
  for (const candidate of candidates) {
    if (!candidate) continue;
    earliest = earliest === null ? candidate : earlierSubmission(earliest, candidate);
  }
  return earliest;
}

/**
 * A read listing date beats an estimate whatever the order of arrival; between two of the same kind the
 * earlier wins, since a paper is new once, on its first listing.
 */
export function mergeListing(existing: Listing, incoming: Listing): Listing {
  const pick = (l: Listing): Listing => ({
    listingDate: l.listingDate,
    listingDateEstimated: l.listingDateEstimated,
  });
  if (incoming.listingDate === null) return pick(existing);
  if (existing.listingDate === null) return pick(incoming);
  if (existing.listingDateEstimated !== incoming.listingDateEstimated) {
    return pick(existing.listingDateEstimated ? incoming : existing);
  }
  return pick(incoming.listingDate < existing.listingDate ? incoming : existing);
}

/**
 * Folds a fresh record of a paper into the stored one. Throws CoreError('invalid-paper') when the ids differ.
 */
export function mergePapers(existing: PaperEntity, incoming: PaperEntity, opts: MergeOptions): PaperEntity {
  if (existing.id !== incoming.id) {
    throw new CoreError(
      'invalid-paper',
      `Paper ${incoming.id} cannot be merged into paper ${existing.id}; merge only records of the same paper.`,
    );
  }
  const categories = incoming.categories.length > 0 ? incoming.categories : existing.categories;
  const versions = mergeVersions(existing.versions, incoming.versions);
  const listing = opts.countsAsListing
    ? mergeListing(existing, incoming)
    : { listingDate: existing.listingDate, listingDateEstimated: existing.listingDateEstimated };
  return {
    id: existing.id,
    title: knownText(incoming.title, existing.title),
    abstract: knownText(incoming.abstract, existing.abstract),
    authors: mergeAuthors(existing.authors, incoming.authors),
    categories: [...categories],
    primaryCategory: categories[0] ?? existing.primaryCategory,
    versions,
    ...listing,
    submittedV1: earliestSubmission([
      existing.submittedV1,
      incoming.submittedV1,
      versions.find((v) => v.version === 1)?.submitted,
    ]),
    comment: known(incoming.comment, existing.comment),
    doi: known(incoming.doi, existing.doi),
    journalRef: known(incoming.journalRef, existing.journalRef),
    license: known(incoming.license, existing.license),
    links: { ...incoming.links },
    codeLinks: [...(incoming.codeLinks.length > 0 ? incoming.codeLinks : existing.codeLinks)],
  };
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]))
    );
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  // A key holding undefined is the same as an absent key: a JSON round trip through the store drops it.
  const keys = (o: Record<string, unknown>) => Object.keys(o).filter((k) => o[k] !== undefined);
  const leftKeys = keys(left);
  return leftKeys.length === keys(right).length && leftKeys.every((k) => deepEqual(left[k], right[k]));
}

/** Deep equality of two entities, for "importing the same record again changes nothing". */
export function paperEquals(a: PaperEntity, b: PaperEntity): boolean {
  return deepEqual(a, b);
}
