/**
 * From a source's `RawPaper` to the `PaperEntity` the store keeps. Every source (OAI-PMH, RSS, the query API,
 * the Kaggle snapshot) goes through here, so two sources describing one paper produce comparable entities.
 */
import { absUrl, parseArxivId, pdfUrl } from './arxiv-id.ts';
import { splitAuthorLine } from './author-lines.ts';
import { findCodeLinks } from './code-links.ts';
import { canonicalTimestamp, isYmd } from './dates.ts';
import { CoreError } from './errors.ts';
import { estimateListingDate } from './listing-schedule.ts';
import { PAPER_LIMITS, capText, cutAt } from './paper-limits.ts';
import type { Author, PaperEntity, PaperVersion, RawPaper } from './paper.ts';
import { normaliseAuthorName, normaliseText } from './text-normalise.ts';

function invalidPaper(id: string, problem: string): CoreError {
  return new CoreError(
    'invalid-paper',
    `Paper ${id} ${problem}; correct the source record or leave the paper out.`,
  );
}

function unique<T>(items: Iterable<T>): T[] {
  return [...new Set(items)];
}

/** Normalised text (cut to `max`), or null when absent or blank. */
function optionalText(
  s: string | null | undefined,
  max: number = PAPER_LIMITS.otherTextChars,
): string | null {
  if (typeof s !== 'string') return null;
  const text = capText(s, max, normaliseText);
  return text === '' ? null : text;
}

function requiredText(id: string, field: string, s: unknown, max: number): string {
  const text = typeof s === 'string' ? capText(s, max, normaliseText) : '';
  if (text === '') throw invalidPaper(id, `has no ${field}`);
  return text;
}

function normaliseAuthors(authors: RawPaper['authors']): Author[] {
  const result: Author[] = [];
  const listed =
    typeof authors === 'string' ? splitAuthorLine(cutAt(authors, PAPER_LIMITS.authorLineChars)) : authors;
  for (const author of listed) {
    if (result.length >= PAPER_LIMITS.authors) break;
    const raw = typeof author === 'string' ? author : author.name;
    const name = capText(raw, PAPER_LIMITS.authorNameChars, normaliseAuthorName);
    if (name === '') continue;
    const affiliations = typeof author === 'string' ? [] : (author.affiliations ?? []);
    result.push({
      name,
      affiliations: unique(
        affiliations
          .slice(0, PAPER_LIMITS.affiliationsPerAuthor)
          .map((affiliation) => capText(affiliation, PAPER_LIMITS.affiliationChars, normaliseText))
          .filter((affiliation) => affiliation !== ''),
      ),
    });
  }
  return result;
}

function normaliseCategories(
  id: string,
  categories: RawPaper['categories'],
  primary: string | null | undefined,
): string[] {
  const listed = typeof categories === 'string' ? categories.split(/[\s,]+/) : categories;
  const named = unique(listed.map((category) => category.trim()).filter((category) => category !== ''));
  const first = primary?.trim();
  const ordered = first ? [first, ...named.filter((category) => category !== first)] : named;
  if (ordered.length === 0) throw invalidPaper(id, 'has no categories');
  return ordered;
}

function submittedDate(id: string, field: string, s: string | null | undefined): string | null {
  if (typeof s !== 'string' || s.trim() === '') return null;
  try {
    return canonicalTimestamp(s);
  } catch (error) {
    if (!(error instanceof CoreError)) throw error;
    throw invalidPaper(id, `has an unreadable ${field} (${error.message})`);
  }
}

/** Versions ascending, one per number; when a source repeats a number, known fields from either copy win. */
function normaliseVersions(
  id: string,
  raw: RawPaper['versions'],
  versionInId: number | null,
): PaperVersion[] {
  const byNumber = new Map<number, PaperVersion>();
  for (const entry of raw ?? []) {
    if (!Number.isInteger(entry.version) || entry.version < 1) {
      throw invalidPaper(
        id,
        `has a version numbered ${JSON.stringify(entry.version)}, not a whole number from 1`,
      );
    }
    const known = byNumber.get(entry.version);
    const submitted = submittedDate(id, `submission date for v${entry.version}`, entry.submitted);
    const size = optionalText(entry.size);
    byNumber.set(entry.version, {
      version: entry.version,
      submitted: known?.submitted ?? submitted,
      size: known?.size ?? size,
    });
  }
  if (versionInId !== null && !byNumber.has(versionInId)) {
    byNumber.set(versionInId, { version: versionInId, submitted: null, size: null });
  }
  return [...byNumber.values()].sort((a, b) => a.version - b.version);
}

function listingOf(
  id: string,
  raw: RawPaper,
  submittedV1: string | null,
): Pick<PaperEntity, 'listingDate' | 'listingDateEstimated'> {
  const given = raw.listingDate?.trim();
  if (given) {
    if (!isYmd(given)) {
      throw invalidPaper(id, `has listing date ${JSON.stringify(given)}, which is not a YYYY-MM-DD day`);
    }
    return { listingDate: given, listingDateEstimated: raw.listingDateEstimated ?? false };
  }
  if (submittedV1 === null) return { listingDate: null, listingDateEstimated: false };
  return { listingDate: estimateListingDate(submittedV1), listingDateEstimated: true };
}

/**
 * Normalises one source record; text fields longer than PAPER_LIMITS are cut, ending in "…". Throws CoreError('invalid-arxiv-id') for an unreadable id and
 * CoreError('invalid-paper'), naming the paper and the field, for a missing title, abstract or category or
 * an unreadable version, date or listing date.
 */
export function normalisePaper(raw: RawPaper): PaperEntity {
  const { id, version } = parseArxivId(raw.id);
  const title = requiredText(id, 'title', raw.title, PAPER_LIMITS.titleChars);
  const abstract = requiredText(id, 'abstract', raw.abstract, PAPER_LIMITS.abstractChars);
  const categories = normaliseCategories(id, raw.categories, raw.primaryCategory);
  const versions = normaliseVersions(id, raw.versions, version);
  const submittedV1 =
    submittedDate(id, 'v1 submission date', raw.submittedV1) ??
    versions.find((v) => v.version === 1)?.submitted ??
    null;
  const comment = optionalText(raw.comment);
  return {
    id,
    title,
    abstract,
    authors: normaliseAuthors(raw.authors),
    categories,
    primaryCategory: categories[0] ?? '',
    versions,
    ...listingOf(id, raw, submittedV1),
    submittedV1,
    comment,
    doi: optionalText(raw.doi),
    journalRef: optionalText(raw.journalRef),
    license: optionalText(raw.license),
    links: { abs: absUrl(id), pdf: pdfUrl(id) },
    codeLinks: findCodeLinks(abstract, comment),
  };
}
