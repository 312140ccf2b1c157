/**
 * Atom feeds from the arXiv query API (export.arxiv.org/api/query), in both the legacy format (2016:
 * per-element xmlns, "ArXiv Query:" titles) and the current one (2026). With namespace prefixes removed
 * the two read the same. `published` is the v1 date and `updated` the date of the version the entry
 * id names, so an entry yields at most two dated versions.
 */
import { parseArxivIdLenient, type RawPaper } from '@quire/core';
import {
  attr,
  child,
  count,
  createXmlParser,
  line,
  list,
  optLine,
  optText,
  parseXmlDocument,
  text,
} from './xml.ts';

export interface AtomFeed {
  totalResults: number | null;
  startIndex: number | null;
  itemsPerPage: number | null;
  entries: RawPaper[];
  /** The API's own error message (e.g. "incorrect id format for abc"); entries are then empty. */
  error: string | null;
}

const parser = createXmlParser(['entry', 'author', 'affiliation', 'link', 'category']);

// The API reports a bad query as a feed whose single entry has an id under /api/errors.
const ERROR_ENTRY = /\/api\/errors(?:#|$)/;

export function parseAtomFeed(xml: string, source = 'the arXiv API response'): AtomFeed {
  const { node: feed } = parseXmlDocument(parser, xml, { source, kind: 'an Atom feed', roots: ['feed'] });
  const result: AtomFeed = {
    totalResults: count(child(feed, 'totalResults')),
    startIndex: count(child(feed, 'startIndex')),
    itemsPerPage: count(child(feed, 'itemsPerPage')),
    entries: [],
    error: null,
  };
  for (const entry of list(child(feed, 'entry'))) {
    const id = text(child(entry, 'id')).trim();
    if (ERROR_ENTRY.test(id)) {
      result.error = optLine(child(entry, 'summary')) ?? id;
      result.entries = [];
      return result;
    }
    result.entries.push(entryToPaper(entry, id));
  }
  return result;
}

function entryToPaper(entry: unknown, entryId: string): RawPaper {
  // The id is the abs URL; fall back to the alternate link should a feed ever omit it. An unreadable id is
  // passed on for normalisePaper to reject (see parseArxivIdLenient).
  const alternate = list(child(entry, 'link')).find((link) => attr(link, 'rel') === 'alternate');
  const ref = parseArxivIdLenient(entryId || (attr(alternate, 'href') ?? ''));
  const published = optText(child(entry, 'published'))?.trim() ?? null;
  const updated = optText(child(entry, 'updated'))?.trim() ?? null;
  const version = ref.version ?? 1;
  const versions = [{ version: 1, submitted: published, size: null }];
  if (version > 1) versions.push({ version, submitted: updated, size: null });

  return {
    id: ref.id,
    title: line(child(entry, 'title')),
    abstract: text(child(entry, 'summary')),
    authors: list(child(entry, 'author')).map((author) => ({
      name: line(child(author, 'name')),
      affiliations: list(child(author, 'affiliation'))
        .map(line)
        .filter((a) => a !== ''),
    })),
    categories: list(child(entry, 'category'))
      .map((category) => attr(category, 'term') ?? '')
      .filter((term) => term !== ''),
    primaryCategory: attr(child(entry, 'primary_category'), 'term'),
    versions,
    submittedV1: published,
    comment: optLine(child(entry, 'comment')),
    journalRef: optLine(child(entry, 'journal_ref')),
    doi: optLine(child(entry, 'doi')),
  };
}
