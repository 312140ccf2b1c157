/**
 * The three OAI-PMH metadata formats arXiv serves, each turned into a RawPaper. The formats differ in
 * what they know about versions: arXivRaw lists every version with its date, arXiv gives only the v1
 * day (its `updated` day belongs to a version whose number it does not state, so it is dropped), and
 * oai_dc gives bare dates.
 */
import {
  collapseWhitespace,
  invertName,
  joinName,
  parseArxivIdLenient,
  splitAuthorLine,
  type RawPaper,
} from '@quire/core';
import { versionEntry } from './version-entries.ts';
import { attr, child, line, list, optLine, optText, text } from './xml.ts';

/** Local names of the metadata elements this module reads; anything else is an unknown format. */
export const METADATA_FORMATS = ['arXiv', 'arXivRaw', 'dc'] as const;
export type MetadataFormat = (typeof METADATA_FORMATS)[number];

/** Tags that repeat inside the metadata, for the parser's `isArray`. */
export const METADATA_REPEATED_TAGS = [
  'version',
  'author',
  'affiliation',
  'creator',
  'description',
  'subject',
];

export interface HeaderFacts {
  /** The arXiv id from the OAI identifier, used when the metadata lacks one. */
  id: string;
  setSpecs: readonly string[];
}

export function metadataToPaper(format: MetadataFormat, node: unknown, header: HeaderFacts): RawPaper {
  switch (format) {
    case 'arXiv':
      return fromArxiv(node, header);
    case 'arXivRaw':
      return fromArxivRaw(node, header);
    case 'dc':
      return fromDublinCore(node, header);
  }
}

function fromArxiv(node: unknown, header: HeaderFacts): RawPaper {
  const created = optText(child(node, 'created'));
  const authors = list(child(child(node, 'authors'), 'author')).map((author) => ({
    name: joinName(
      line(child(author, 'forenames')),
      line(child(author, 'keyname')),
      line(child(author, 'suffix')),
    ),
    affiliations: list(child(author, 'affiliation'))
      .map(line)
      .filter((a) => a !== ''),
  }));
  return {
    id: optText(child(node, 'id')) ?? header.id,
    title: line(child(node, 'title')),
    abstract: text(child(node, 'abstract')),
    authors,
    categories: line(child(node, 'categories')),
    versions: created ? [{ version: 1, submitted: created, size: null }] : [],
    submittedV1: created,
    comment: optLine(child(node, 'comments')),
    journalRef: optLine(child(node, 'journal-ref')),
    doi: optLine(child(node, 'doi')),
    license: optLine(child(node, 'license')),
  };
}

function fromArxivRaw(node: unknown, header: HeaderFacts): RawPaper {
  const versions = list(child(node, 'version')).map((v, index) =>
    versionEntry(attr(v, 'version'), index, optText(child(v, 'date')), optText(child(v, 'size'))),
  );
  const first = versions.find((v) => v.version === 1);
  return {
    id: optText(child(node, 'id')) ?? header.id,
    title: line(child(node, 'title')),
    abstract: text(child(node, 'abstract')),
    authors: splitAuthorLine(text(child(node, 'authors'))),
    categories: line(child(node, 'categories')),
    versions,
    submittedV1: first?.submitted ?? null,
    comment: optLine(child(node, 'comments')),
    journalRef: optLine(child(node, 'journal-ref')),
    doi: optLine(child(node, 'doi')),
    license: optLine(child(node, 'license')),
  };
}

const COMMENT_PREFIX = /^comment:\s*/i;

/**
 * oai_dc carries no category codes, only subject names ("Computer Science - Machine Learning"), so the
 * categories come from the header's setSpecs, mapped to the archive they name: "cs" → cs,
 * "physics:hep-th" → hep-th, "math" → math. That is coarse (cs instead of cs.LG) but never wrong; a
 * later arXiv or RSS fetch of the same paper supplies the real categories.
 */
function fromDublinCore(node: unknown, header: HeaderFacts): RawPaper {
  let abstract: string | null = null;
  let comment: string | null = null;
  for (const description of list(child(node, 'description'))) {
    const value = text(description).trim();
    if (COMMENT_PREFIX.test(value)) comment ??= value.replace(COMMENT_PREFIX, '');
    else abstract ??= value;
  }

  let id = header.id;
  let doi: string | null = null;
  for (const identifier of list(child(node, 'identifier'))) {
    const value = text(identifier).trim();
    if (/arxiv\.org\/abs\//i.test(value)) id = parseArxivIdLenient(value).id;
    else if (/^doi:/i.test(value)) doi ??= value.slice(4).trim();
  }

  // ISO days sort as strings; the earliest is the v1 day.
  let earliest: string | null = null;
  for (const date of list(child(node, 'date'))) {
    const value = text(date).trim();
    if (value !== '' && (earliest === null || value < earliest)) earliest = value;
  }

  const categories = [...new Set(header.setSpecs.map((spec) => spec.slice(spec.indexOf(':') + 1)))];
  return {
    id,
    title: line(child(node, 'title')),
    abstract: abstract ?? '',
    authors: list(child(node, 'creator')).map((creator) => invertName(line(creator))),
    categories,
    versions: earliest ? [{ version: 1, submitted: earliest, size: null }] : [],
    submittedV1: earliest,
    comment: comment === null ? null : collapseWhitespace(comment),
    doi,
    license: optLine(child(node, 'rights')),
  };
}
