/**
 * One line of a JSON Lines dump, in either of the two shapes Quire imports:
 *
 * - the listing corpus (shared/data/arxiv/listings): `id, date, title, authors[], categories[], comment,
 *   abstract, source`, where `date` is the real listing day;
 * - the Kaggle arxiv-metadata-oai-snapshot: `id, authors` (one string), `authors_parsed, categories`
 *   (space separated), `versions[{version, created}], update_date, comments, journal-ref, doi, license…`.
 *   It has no listing day, so none is set and core estimates one from the v1 date; a record whose versions
 *   give no v1 date gets its listing day estimated from `update_date` (the day of its last change, so no
 *   earlier than the real listing), marked estimated like the other.
 *
 * The shape is recognised by the types of `authors` and `categories`, which differ between the two.
 * Titles are collapsed to one line (the snapshot keeps arXiv's hard line wraps) and abstracts trimmed;
 * everything else is passed on as found for core's normaliser.
 */
import {
  collapseWhitespace,
  estimateListingDate,
  isYmd,
  joinName,
  splitAuthorLine,
  type RawPaper,
} from '@quire/core';
import { QuireError } from '../errors.ts';
import { versionEntry, type WireVersion } from './version-entries.ts';

type Json = Record<string, unknown>;

export function parseDumpLine(line: string): RawPaper {
  if (line.trim() === '') throw badLine('the line is empty');
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw badLine('the line is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badLine('the line is not a JSON object');
  }
  const record = value as Json;
  if (typeof record.id !== 'string' || record.id.trim() === '')
    throw badLine('the record has no string "id"');
  if (Array.isArray(record.authors) && Array.isArray(record.categories)) return fromListing(record);
  if (typeof record.authors === 'string' && typeof record.categories === 'string') return fromKaggle(record);
  throw badLine(
    'the record is neither a listing-corpus line (authors and categories as arrays) nor a Kaggle snapshot line (authors and categories as strings)',
  );
}

function badLine(reason: string): QuireError {
  return new QuireError('bad-input', `Cannot import this dump line: ${reason}.`);
}

function fromListing(r: Json): RawPaper {
  const date = r.date;
  if (typeof date !== 'string' || !isYmd(date)) {
    throw badLine('the listing record has no "date" that is a YYYY-MM-DD day');
  }
  return {
    id: r.id as string,
    title: collapseWhitespace(str(r.title) ?? ''),
    abstract: (str(r.abstract) ?? '').trim(),
    authors: strings(r.authors),
    categories: strings(r.categories),
    listingDate: date,
    listingDateEstimated: false,
    comment: str(r.comment),
  };
}

function fromKaggle(r: Json): RawPaper {
  const versions: WireVersion[] = [];
  if (Array.isArray(r.versions)) {
    for (const [index, v] of r.versions.entries()) {
      const entry = (typeof v === 'object' && v !== null ? v : {}) as Json;
      versions.push(versionEntry(str(entry.version), index, str(entry.created), null));
    }
  }
  const submittedV1 = versions.find((v) => v.version === 1)?.submitted ?? null;
  return {
    id: r.id as string,
    title: collapseWhitespace(str(r.title) ?? ''),
    abstract: (str(r.abstract) ?? '').trim(),
    authors: kaggleAuthors(r),
    categories: r.categories as string,
    versions,
    submittedV1,
    ...(submittedV1 === null ? listingFromUpdateDate(r.update_date) : {}),
    comment: str(r.comments),
    journalRef: str(r['journal-ref']),
    doi: str(r.doi),
    license: str(r.license),
  };
}

/** The listing day arXiv's schedule gives a paper submitted on `update_date`, when that is a day. */
function listingFromUpdateDate(value: unknown): Pick<RawPaper, 'listingDate' | 'listingDateEstimated'> {
  const day = str(value)?.trim();
  if (day === undefined || !isYmd(day)) return {};
  return { listingDate: estimateListingDate(day), listingDateEstimated: true };
}

/**
 * authors_parsed is [surname, forenames, suffix, …affiliations] per author, which is cleaner than
 * re-splitting the author string; the string is the fallback when it is missing or malformed.
 */
function kaggleAuthors(r: Json): RawPaper['authors'] {
  const parsed = r.authors_parsed;
  if (Array.isArray(parsed) && parsed.length > 0) {
    const authors: Array<{ name: string; affiliations: string[] }> = [];
    for (const entry of parsed) {
      if (!Array.isArray(entry)) return splitAuthorLine(r.authors as string);
      const [surname, forenames, suffix, ...affiliations] = entry.map((part) =>
        typeof part === 'string' ? part.trim() : '',
      );
      const name = joinName(forenames, surname, suffix);
      if (name !== '') authors.push({ name, affiliations: affiliations.filter((a) => a !== '') });
    }
    return authors;
  }
  return splitAuthorLine(r.authors as string);
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
