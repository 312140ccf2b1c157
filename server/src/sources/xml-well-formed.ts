/**
 * The well-formedness check the parsers run before fast-xml-parser, which accepts nearly anything (it
 * closes what a cut-short page left open, pops whatever a mismatched closing tag names, keeps a bare `&`).
 * fast-xml-parser's own validator did this at about a quarter of a page's parse; this checks what a
 * page broken in transit or by its server shows (elements that do not nest, one root with nothing but
 * whitespace beside it, markup left open at the end, a bare `<` or `&` in text) in one pass of `indexOf`,
 * and leaves the finer points of the XML grammar (attribute syntax, every name character) to the parser.
 */

export interface XmlFault {
  msg: string;
  /** 1-based, as an editor counts. */
  line: number;
  col: number;
}

/** A name's first character: what XML allows, ASCII and beyond. */
const NAME_START = /^[A-Za-z_:\u00C0-\uFFFF]/;
/** An `&` that does not begin an entity or character reference. */
const BARE_AMPERSAND = /&(?:(?!#[0-9]+;|#x[0-9A-Fa-f]+;|[\w.:-]+;))/g;

/** The first fault of `xml` (which starts at its first non-space character), or null when there is none. */
export function findXmlFault(xml: string): XmlFault | null {
  const open: string[] = [];
  // Comments, CDATA sections, processing instructions and the doctype: where `&` is not markup.
  const verbatim: number[] = [];
  let roots = 0;
  let doctype = false;
  let at = xml.indexOf('<');
  if (at < 0) return fault(xml, 0, 'no element found');
  if (at > 0 && xml.slice(0, at).trim() !== '') return fault(xml, 0, 'text before the root element');

  while (at >= 0) {
    const next = xml.charCodeAt(at + 1);
    let end: number;
    if (next === 0x2f /* / */) {
      end = xml.indexOf('>', at + 2);
      if (end < 0) return fault(xml, at, 'closing tag is not closed');
      const expected = open.pop();
      const nameEnd = at + 2 + (expected?.length ?? 0);
      // Compared in place: slicing every closing tag's name cost a third of the check.
      if (
        expected === undefined ||
        !xml.startsWith(expected, at + 2) ||
        (nameEnd !== end && xml.slice(nameEnd, end).trim() !== '')
      ) {
        const name = xml.slice(at + 2, end).trimEnd();
        return fault(
          xml,
          at,
          expected === undefined
            ? `closing tag </${name}> has no opening tag`
            : `expected closing tag </${expected}>, found </${name}>`,
        );
      }
    } else if (next === 0x3f /* ? */) {
      end = closeOf(xml, at, '?>');
      if (end < 0) return fault(xml, at, 'processing instruction is not closed');
      verbatim.push(at, end);
    } else if (next === 0x21 /* ! */) {
      if (xml.startsWith('<!--', at)) {
        end = closeOf(xml, at + 4, '-->');
      } else if (xml.startsWith('<![CDATA[', at)) {
        if (open.length === 0) return fault(xml, at, 'CDATA section outside the root element');
        end = closeOf(xml, at + 9, ']]>');
      } else if (xml.startsWith('<!DOCTYPE', at) && roots === 0 && !doctype) {
        doctype = true;
        end = doctypeEnd(xml, at);
      } else {
        return fault(xml, at, 'unknown markup after <!');
      }
      if (end < 0) return fault(xml, at, 'markup after <! is not closed');
      verbatim.push(at, end);
    } else {
      const nameEnd = nameEndOf(xml, at + 1);
      const name = xml.slice(at + 1, nameEnd);
      if (!NAME_START.test(name)) return fault(xml, at, 'a tag must start with a name (a bare "<" in text?)');
      end = tagEnd(xml, nameEnd);
      if (end < 0)
        return fault(xml, at, `tag <${name}> is not closed, or an attribute is not one name="value"`);
      if (open.length === 0 && roots++ > 0) return fault(xml, at, `a second root element <${name}>`);
      if (xml.charCodeAt(end - 1) !== 0x2f /* / */) open.push(name);
    }
    at = xml.indexOf('<', end + 1);
    if (open.length === 0) {
      const outside = xml.slice(end + 1, at < 0 ? xml.length : at);
      if (outside.trim() !== '') return fault(xml, end + 1, 'text outside the root element');
    }
  }
  const unclosed = open.at(-1);
  if (unclosed !== undefined) return fault(xml, xml.length, `<${unclosed}> is not closed`);
  if (roots === 0) return fault(xml, xml.length, 'no element found');
  return bareAmpersand(xml, verbatim);
}

/** Where a tag's name starting at `from` ends: at whitespace, `/`, `>`, or `<` (which breaks the tag). */
function nameEndOf(xml: string, from: number): number {
  let i = from;
  for (; i < xml.length; i++) {
    const c = xml.charCodeAt(i);
    if (c === 0x3e || c === 0x2f || c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d || c === 0x3c) break;
  }
  return i;
}

/** Index of the last character of `close` at or after `from`, or -1. */
function closeOf(xml: string, from: number, close: string): number {
  const found = xml.indexOf(close, from);
  return found < 0 ? -1 : found + close.length - 1;
}

/**
 * Index of the `>` ending a start tag whose attributes begin at `from`, or -1 when it is not closed or
 * its attributes are not `name="value"` pairs (or single-quoted) apart from one another, each name once:
 * fast-xml-parser drops an unquoted or valueless attribute and keeps the last of two, so an OAI header's
 * `status=deleted` would be lost without a word. Quoted values may hold `>`.
 */
function tagEnd(xml: string, from: number): number {
  let i = from;
  let first: string | null = null;
  let names: Set<string> | null = null;
  for (;;) {
    const spaced = i;
    while (isSpace(xml.charCodeAt(i))) i++;
    const c = xml.charCodeAt(i);
    if (c === 0x3e /* > */) return i;
    if (c === 0x2f /* / */) return xml.charCodeAt(i + 1) === 0x3e ? i + 1 : -1;
    if (i === spaced || Number.isNaN(c)) return -1;
    const nameStart = i;
    for (; i < xml.length; i++) {
      const n = xml.charCodeAt(i);
      if (
        n === 0x3d /* = */ ||
        isSpace(n) ||
        n === 0x3e ||
        n === 0x2f ||
        n === 0x3c ||
        n === 0x22 ||
        n === 0x27
      )
        break;
    }
    if (i === nameStart) return -1;
    const name = xml.slice(nameStart, i);
    if (first === null) first = name;
    else if (name === first || names?.has(name) === true) return -1;
    else (names ??= new Set()).add(name);
    while (isSpace(xml.charCodeAt(i))) i++;
    if (xml.charCodeAt(i) !== 0x3d) return -1;
    i++;
    while (isSpace(xml.charCodeAt(i))) i++;
    const quote = xml[i];
    if (quote !== '"' && quote !== "'") return -1;
    const close = xml.indexOf(quote, i + 1);
    if (close < 0) return -1;
    if (xml.slice(i + 1, close).includes('<')) return -1;
    i = close + 1;
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

/** Index of the `>` ending a doctype, past an internal subset in brackets. */
function doctypeEnd(xml: string, from: number): number {
  const gt = xml.indexOf('>', from);
  const bracket = gt < 0 ? -1 : xml.slice(from, gt).indexOf('[');
  if (bracket < 0) return gt;
  const close = xml.indexOf(']', from + bracket);
  return close < 0 ? -1 : xml.indexOf('>', close);
}

function bareAmpersand(xml: string, verbatim: readonly number[]): XmlFault | null {
  BARE_AMPERSAND.lastIndex = 0;
  // Matches come in order, so the verbatim spans and the last `<` and `>` before each are walked forward
  // once: a page of many comments or one huge tag holding `&`s is checked in one pass, not one per `&`.
  let span = 0;
  let lastOpen = -1;
  let lastClose = -1;
  let nextOpen = xml.indexOf('<');
  let nextClose = xml.indexOf('>');
  for (let match = BARE_AMPERSAND.exec(xml); match; match = BARE_AMPERSAND.exec(xml)) {
    const at = match.index;
    while (span < verbatim.length && (verbatim[span + 1] as number) < at) span += 2;
    if (span < verbatim.length && at > (verbatim[span] as number)) continue;
    for (; nextOpen >= 0 && nextOpen < at; nextOpen = xml.indexOf('<', nextOpen + 1)) lastOpen = nextOpen;
    for (; nextClose >= 0 && nextClose < at; nextClose = xml.indexOf('>', nextClose + 1))
      lastClose = nextClose;
    // In an attribute value (after a tag's `<`, before its `>`) it is left to the parser, as it was before.
    if (lastOpen <= lastClose) return fault(xml, at, 'a bare "&" in text (write &amp;)');
  }
  return null;
}

function fault(xml: string, at: number, msg: string): XmlFault {
  let line = 1;
  let lineStart = 0;
  for (let nl = xml.indexOf('\n'); nl >= 0 && nl < at; nl = xml.indexOf('\n', nl + 1)) {
    line++;
    lineStart = nl + 1;
  }
  return { msg, line, col: at - lineStart + 1 };
}
