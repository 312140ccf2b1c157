/**
 * OAI-PMH responses from export.arxiv.org/oai2. OAI errors (noRecordsMatch, badResumptionToken, …) are
 * part of the protocol's normal flow, so they are reported in the page rather than thrown; only a
 * document that is not a whole, well-formed OAI-PMH response throws.
 */
import { parseArxivIdLenient, type RawPaper } from '@quire/core';
import { QuireError } from '../errors.ts';
import {
  METADATA_FORMATS,
  METADATA_REPEATED_TAGS,
  metadataToPaper,
  type MetadataFormat,
} from './oai-metadata.ts';
import {
  attr,
  child,
  count,
  createXmlParser,
  isObject,
  list,
  optText,
  parseXmlDocument,
  text,
} from './xml.ts';

export interface OaiRecord {
  /** The OAI identifier, e.g. "oai:arXiv.org:0704.0001". */
  identifier: string;
  /** When arXiv last changed the record: a modification time, never a listing date. */
  datestamp: string;
  sets: string[];
  paper: RawPaper;
}

export interface OaiResumptionToken {
  /** Null on the last page of a list, where the token element is present but empty. */
  token: string | null;
  cursor: number | null;
  completeListSize: number | null;
}

export interface OaiPage {
  /** The request's verb; '' when the server did not echo one (e.g. for badVerb). */
  verb: string;
  responseDate: string | null;
  records: OaiRecord[];
  /**
   * Normalised arXiv ids (no "oai:arXiv.org:" prefix, no version) of records whose header says
   * status="deleted"; an identifier that holds no arXiv id is listed as found.
   */
  deleted: string[];
  resumptionToken: OaiResumptionToken | null;
  error: null | { code: string; message: string };
}

const VERBS = ['ListRecords', 'GetRecord', 'ListIdentifiers', 'Identify', 'ListSets', 'ListMetadataFormats'];

const parser = createXmlParser(['record', 'setSpec', 'error', ...METADATA_REPEATED_TAGS]);

export function parseOaiResponse(xml: string, source = 'the OAI-PMH response'): OaiPage {
  const { node: root } = parseXmlDocument(parser, xml, {
    source,
    kind: 'an OAI-PMH response',
    roots: ['OAI-PMH'],
  });

  const request = child(root, 'request');
  const verb = attr(request, 'verb') ?? VERBS.find((name) => child(root, name) !== undefined) ?? '';
  const page: OaiPage = {
    verb,
    responseDate: optText(child(root, 'responseDate')),
    records: [],
    deleted: [],
    resumptionToken: null,
    error: null,
  };

  const [firstError] = list(child(root, 'error'));
  if (firstError !== undefined) {
    page.error = { code: attr(firstError, 'code') ?? 'unknown', message: text(firstError).trim() };
    return page;
  }

  const body = child(root, verb);
  if (verb === 'ListRecords' || verb === 'GetRecord') {
    for (const record of list(child(body, 'record'))) readRecord(record, page, source);
  } else if (verb === 'ListIdentifiers') {
    // Headers only: nothing to store, but deletions are still worth knowing.
    for (const header of list(child(body, 'header'))) {
      if (attr(header, 'status') === 'deleted')
        page.deleted.push(arxivIdOf(text(child(header, 'identifier'))));
    }
  }
  page.resumptionToken = readToken(child(body, 'resumptionToken'));
  return page;
}

function readRecord(record: unknown, page: OaiPage, source: string): void {
  const header = child(record, 'header');
  const identifier = text(child(header, 'identifier')).trim();
  if (attr(header, 'status') === 'deleted') {
    page.deleted.push(arxivIdOf(identifier));
    return;
  }
  const sets = list(child(header, 'setSpec')).map((spec) => text(spec).trim());
  const metadata = child(record, 'metadata');
  const format = findFormat(metadata);
  if (!format) {
    const found = isObject(metadata) ? Object.keys(metadata).filter((k) => !k.startsWith('@_')) : [];
    throw new QuireError(
      'unknown-format',
      `${source}: record ${identifier || '(no identifier)'} has ${
        found.length > 0 ? `metadata <${found.join('>, <')}>` : 'no metadata'
      }; Quire reads metadataPrefix arXiv, arXivRaw or oai_dc.`,
    );
  }
  page.records.push({
    identifier,
    datestamp: text(child(header, 'datestamp')).trim(),
    sets,
    paper: metadataToPaper(format, child(metadata, format), {
      id: arxivIdOf(identifier),
      setSpecs: sets,
    }),
  });
}

/**
 * "oai:arXiv.org:hep-th/9504118" → "hep-th/9504118". A record whose identifier holds no arXiv id keeps it as
 * found, so that normalisePaper rejects that one record rather than the parser failing the page.
 */
function arxivIdOf(identifier: string): string {
  return parseArxivIdLenient(identifier).id;
}

function findFormat(metadata: unknown): MetadataFormat | null {
  if (!isObject(metadata)) return null;
  for (const format of METADATA_FORMATS) if (metadata[format] !== undefined) return format;
  return null;
}

function readToken(node: unknown): OaiResumptionToken | null {
  if (node === undefined) return null;
  return {
    token: optText(node)?.trim() || null,
    cursor: count(attr(node, 'cursor')),
    completeListSize: count(attr(node, 'completeListSize')),
  };
}
