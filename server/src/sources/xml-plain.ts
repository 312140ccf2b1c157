/**
 * A one-pass reader for plain XML documents, giving exactly what `createXmlParser`'s fast-xml-parser gives
 * (same keys in the same order, same arrays, same text): elements, attributes, text and the five
 * predefined entities, nothing else. fast-xml-parser builds an ordered tree, then a second tree from it,
 * and runs every value through its callbacks; an OAI-PMH page of 1,000 records took it about as long as
 * storing the page. Whatever this reader does not handle (a doctype, comments, CDATA, processing
 * instructions past the declaration, other entity or character references, mixed content, unusual names)
 * makes it answer null, and the document goes to fast-xml-parser as before: hostile and unusual input is
 * never read here. It runs only on text `findXmlFault` has accepted, so elements nest; it still checks what
 * it relies on.
 */
import type { XmlObject } from './xml.ts';

/** Names this reader keys objects by: one optional prefix, ASCII name characters. */
const NAME = /^[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?$/;

/** Names fast-xml-parser refuses or renames as element keys, and anything an object inherits. */
function unsafeKey(name: string): boolean {
  return name in Object.prototype || name === 'prototype';
}

const ENTITIES: Readonly<Record<string, string>> = {
  lt: '<',
  gt: '>',
  amp: '&',
  quot: '"',
  apos: "'",
};

/** `raw` with its predefined entities decoded in one pass, or null when it holds any other reference. */
function decode(raw: string): string | null {
  let amp = raw.indexOf('&');
  if (amp < 0) return raw;
  let out = '';
  let from = 0;
  while (amp >= 0) {
    const semi = raw.indexOf(';', amp + 1);
    if (semi < 0 || semi - amp > 5) return null;
    const name = raw.slice(amp + 1, semi);
    if (!Object.hasOwn(ENTITIES, name)) return null;
    out += raw.slice(from, amp) + ENTITIES[name];
    from = semi + 1;
    amp = raw.indexOf('&', from);
  }
  return out + raw.slice(from);
}

interface Frame {
  /** The name as written, for its closing tag. */
  raw: string;
  /** The key it is stored under: its local name. */
  key: string;
  children: XmlObject | null;
  attrs: XmlObject | null;
  /** Its text, trimmed and decoded ('' for none); only an element without children has any. */
  text: string;
}

const SPACE = /\s/;

/** True for XML's whitespace characters between tokens of a tag. */
function isTagSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

/**
 * The document `xml` (starting at its first non-space character, checked well-formed) as fast-xml-parser
 * gives it with `createXmlParser(repeated)`'s options, minus the `?xml` declaration's entry; or null when it
 * holds anything beyond plain elements, attributes, text and the predefined entities.
 */
export function readPlainXml(xml: string, repeated: ReadonlySet<string>): XmlObject | null {
  // fast-xml-parser reads line ends as XML does.
  if (xml.includes('\r')) xml = xml.replace(/\r\n?/g, '\n');
  let at = 0;
  if (xml.startsWith('<?xml')) {
    const end = xml.indexOf('?>');
    if (end < 0 || !SPACE.test(xml.charAt(5))) return null;
    at = end + 2;
  }
  const doc: XmlObject = {};
  const stack: Frame[] = [];
  let textFrom = at;
  at = xml.indexOf('<', at);
  while (at >= 0) {
    const top = stack.at(-1);
    if (top !== undefined && at > textFrom) {
      const raw = xml.slice(textFrom, at).trim();
      if (raw !== '') {
        if (top.children !== null || top.text !== '') return null;
        const text = decode(raw);
        if (text === null) return null;
        top.text = text;
      }
    } else if (top === undefined && xml.slice(textFrom, at).trim() !== '') {
      return null;
    }
    const next = xml.charCodeAt(at + 1);
    if (next === 0x2f /* / */) {
      const end = xml.indexOf('>', at + 2);
      const frame = stack.pop();
      if (end < 0 || frame === undefined || xml.slice(at + 2, end).trimEnd() !== frame.raw) return null;
      const parent = stack.at(-1);
      if (!store(parent === undefined ? doc : childrenOf(parent), frame, repeated)) return null;
      textFrom = end + 1;
      at = xml.indexOf('<', textFrom);
      continue;
    }
    if (next === 0x21 /* ! */ || next === 0x3f /* ? */) return null;
    if (top === undefined && Object.keys(doc).length > 0) return null;
    // The opening tag: its name, then attributes, to `>` or `/>`.
    let i = at + 1;
    while (i < xml.length) {
      const c = xml.charCodeAt(i);
      if (isTagSpace(c) || c === 0x3e /* > */ || c === 0x2f /* / */) break;
      i++;
    }
    const raw = xml.slice(at + 1, i);
    if (!NAME.test(raw) || raw.startsWith('xmlns')) return null;
    const key = raw.slice(raw.indexOf(':') + 1);
    if (unsafeKey(key) || (top === undefined && repeated.has(key))) return null;
    const frame: Frame = { raw, key, children: null, attrs: null, text: '' };
    let closed = false;
    for (;;) {
      while (i < xml.length && isTagSpace(xml.charCodeAt(i))) i++;
      const c = xml.charCodeAt(i);
      if (c === 0x3e /* > */) break;
      if (c === 0x2f /* / */) {
        if (xml.charCodeAt(i + 1) !== 0x3e) return null;
        closed = true;
        i++;
        break;
      }
      const nameFrom = i;
      while (i < xml.length) {
        const d = xml.charCodeAt(i);
        if (isTagSpace(d) || d === 0x3d /* = */ || d === 0x3e || d === 0x2f) break;
        i++;
      }
      const name = xml.slice(nameFrom, i);
      while (i < xml.length && isTagSpace(xml.charCodeAt(i))) i++;
      if (!NAME.test(name) || xml.charCodeAt(i) !== 0x3d) return null;
      i++;
      while (i < xml.length && isTagSpace(xml.charCodeAt(i))) i++;
      const quote = xml.charAt(i);
      if (quote !== '"' && quote !== "'") return null;
      const valueEnd = xml.indexOf(quote, i + 1);
      if (valueEnd < 0) return null;
      const rawValue = xml.slice(i + 1, valueEnd);
      if (rawValue.includes('<') || rawValue.includes('>')) return null;
      i = valueEnd + 1;
      const colon = name.indexOf(':');
      // Namespace declarations are dropped, as removeNSPrefix does.
      if ((colon < 0 ? name : name.slice(0, colon)) === 'xmlns') continue;
      const value = decode(rawValue.trim());
      if (value === null) return null;
      frame.attrs ??= {};
      frame.attrs[`@_${name.slice(colon + 1)}`] = value;
    }
    if (i >= xml.length) return null;
    if (closed) {
      if (!store(top === undefined ? doc : childrenOf(top), frame, repeated)) return null;
    } else {
      stack.push(frame);
    }
    textFrom = i + 1;
    at = xml.indexOf('<', textFrom);
  }
  if (stack.length > 0 || xml.slice(textFrom).trim() !== '') return null;
  return Object.keys(doc).length === 1 ? doc : null;
}

function childrenOf(frame: Frame): XmlObject {
  // Text before a child makes mixed content, which fast-xml-parser orders differently: not read here.
  if (frame.children === null) frame.children = {};
  return frame.children;
}

/** Adds `frame`'s element to `into` as fast-xml-parser does; false for what this reader leaves to it. */
function store(into: XmlObject, frame: Frame, repeated: ReadonlySet<string>): boolean {
  const { children, attrs, text } = frame;
  if (children !== null && text !== '') return false;
  let value: unknown;
  if (attrs === null) {
    value = children ?? text;
  } else {
    const node: XmlObject = children ?? {};
    if (text !== '') node['#text'] = text;
    Object.assign(node, attrs);
    value = node;
  }
  const { key } = frame;
  if (Object.hasOwn(into, key)) {
    const held = into[key];
    if (Array.isArray(held)) held.push(value);
    else into[key] = [held, value];
  } else {
    into[key] = repeated.has(key) ? [value] : value;
  }
  return true;
}
