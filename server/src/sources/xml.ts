/**
 * Shared XML plumbing for the arXiv wire-format parsers: one parser configuration, a parse that refuses
 * broken or cut-short documents, and accessors for the loosely shaped nodes fast-xml-parser produces.
 */
import { collapseWhitespace } from '@quire/core';
import { XMLParser } from 'fast-xml-parser';
import { QuireError } from '../errors.ts';
import { readPlainXml } from './xml-plain.ts';
import { findXmlFault, type XmlFault } from './xml-well-formed.ts';

export type XmlObject = Record<string, unknown>;

/** A configured parser: fast-xml-parser, and the tags it always gives as arrays (xml-plain.ts reads them too). */
export interface XmlReader {
  readonly parser: XMLParser;
  readonly repeated: ReadonlySet<string>;
}

/**
 * Builds a parser whose output the accessors below understand. Call it once per module: building the
 * options is not free and the instance is reusable.
 */
export function createXmlParser(repeatedTags: readonly string[]): XmlReader {
  const repeated = new Set(repeatedTags);
  const parser = new XMLParser({
    ignoreAttributes: false,
    // Feeds are free to pick their own prefixes (arxiv:, dc:, opensearch:); local names are stable.
    removeNSPrefix: true,
    // Ids such as 0704.0010 and counts must stay strings, or 0704.0010 would become 704.001.
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    processEntities: true,
    // Without this fast-xml-parser leaves numeric references (&#233;) undecoded.
    htmlEntities: true,
    // Attributes share the callback; `version="v1"` on arXivRaw's <version> must stay a string.
    isArray: (name, _path, _leaf, isAttribute) => !isAttribute && repeated.has(name),
    // The callback reads names only: without this the parser builds the element's path as a string for
    // every element and attribute, a sixth of an OAI page's parse.
    jPath: false,
  });
  return { parser, repeated };
}

export interface XmlDocumentSpec {
  /** Names the document in errors: a URL or file path. */
  source: string;
  /** What the document should be, for messages ("an OAI-PMH response"). */
  kind: string;
  /** Accepted local names of the root element. */
  roots: readonly string[];
}

/**
 * Parses `xml` and returns its root element's name and content. fast-xml-parser alone accepts a
 * truncated page without complaint (it closes whatever is open), so the text is checked first
 * (xml-well-formed.ts), which makes sure a page was received whole. A plain document is then read by
 * xml-plain.ts, which gives fast-xml-parser's very objects at a quarter of its cost; anything else by
 * fast-xml-parser.
 */
export function parseXmlDocument(
  { parser, repeated }: XmlReader,
  xml: string,
  spec: XmlDocumentSpec,
): { root: string; node: XmlObject } {
  const { source, kind } = spec;
  if (xml.trim() === '') {
    throw malformed(
      `${source} is empty, not ${kind}. Fetch it again; if it stays empty, the server is failing.`,
    );
  }
  // Stray whitespace before <?xml …?> is invalid XML but harmless, and some servers emit it.
  if (/^\s/.test(xml)) xml = xml.trimStart();
  const fault = findXmlFault(xml);
  if (fault) throw malformed(describeInvalid(xml, fault, spec));

  let doc: unknown = readPlainXml(xml, repeated);
  try {
    doc ??= parser.parse(xml);
  } catch (err) {
    throw malformed(`${source} could not be parsed as ${kind}: ${String(err)}.`, err);
  }
  if (!isObject(doc)) throw malformed(`${source} has no root element; it is not ${kind}.`);
  for (const key of Object.keys(doc)) {
    if (key.startsWith('?')) continue; // the <?xml …?> declaration
    if (!spec.roots.includes(key)) {
      throw malformed(
        `${source} is not ${kind}: its root element is <${key}>. Check the URL; a proxy or error page may have answered.`,
      );
    }
    const node = doc[key];
    return { root: key, node: isObject(node) ? node : {} };
  }
  throw malformed(`${source} has no root element; it is not ${kind}.`);
}

function describeInvalid(xml: string, err: XmlFault, { source, kind, roots }: XmlDocumentSpec): string {
  if (/^\s*(<!doctype html|<html)/i.test(xml)) {
    return `${source} is an HTML page, not ${kind}. The server may be overloaded or the URL wrong; retry later.`;
  }
  if (!endsWithRootClose(xml, roots)) {
    return (
      `${source} is cut short: it does not end by closing <${roots.join('> or <')}> ` +
      `(${xml.length} characters received). The transfer was interrupted; fetch it again.`
    );
  }
  return `${source} is not well-formed XML (line ${err.line}, column ${err.col}: ${err.msg}). Fetch it again; if the error persists, report it to the source.`;
}

/** Cheap look at the last tag, to tell an interrupted transfer from a syntax error. */
function endsWithRootClose(xml: string, roots: readonly string[]): boolean {
  const end = xml.trimEnd();
  const open = end.lastIndexOf('</');
  if (open < 0 || !end.endsWith('>')) return false;
  const name = end.slice(open + 2, -1).trim();
  const local = name.slice(name.indexOf(':') + 1);
  return roots.includes(local);
}

function malformed(message: string, cause?: unknown): QuireError {
  return new QuireError('malformed-xml', message, cause === undefined ? undefined : { cause });
}

export function isObject(node: unknown): node is XmlObject {
  return typeof node === 'object' && node !== null && !Array.isArray(node);
}

/** A child of an element, or undefined. */
export function child(node: unknown, name: string): unknown {
  return isObject(node) ? node[name] : undefined;
}

/**
 * Text content of a node that is either a plain string (no attributes) or an object with `#text`
 * (attributes present). An absent or empty element gives ''.
 */
export function text(node: unknown): string {
  if (typeof node === 'string') return node;
  if (Array.isArray(node)) return text(node[0]);
  if (isObject(node)) {
    const value = node['#text'];
    return typeof value === 'string' ? value : '';
  }
  return '';
}

/** Like `text`, but null for an absent or empty element. */
export function optText(node: unknown): string | null {
  const value = text(node);
  return value === '' ? null : value;
}

/** Collapsed text of a child: for titles and names that the wire wraps over several lines. */
export function line(node: unknown): string {
  return collapseWhitespace(text(node));
}

/** Like `line`, but null when empty. */
export function optLine(node: unknown): string | null {
  const value = collapseWhitespace(text(node));
  return value === '' ? null : value;
}

export function attr(node: unknown, name: string): string | null {
  const value = child(node, `@_${name}`);
  return typeof value === 'string' ? value : null;
}

/** A possibly repeated child as an array, whether or not the parser made it one. */
export function list(node: unknown): unknown[] {
  if (Array.isArray(node)) return node;
  return node === undefined || node === null ? [] : [node];
}

/** A non-negative integer from element text, or null. */
export function count(node: unknown): number | null {
  const value = text(node).trim();
  return /^\d+$/.test(value) ? Number(value) : null;
}
