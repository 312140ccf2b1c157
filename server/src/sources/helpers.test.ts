import { describe, expect, it } from 'vitest';
import { parseArxivRef, stripOaiPrefix } from './arxiv-ids.ts';
import { invertName, splitAuthorLine } from './authors.ts';
import { rfc822Day, rfc822ToIso } from './dates.ts';
import { attr, createXmlParser, list, parseXmlDocument, text } from './xml.ts';

describe('dates', () => {
  it('converts arXiv RFC 822 dates', () => {
    expect(rfc822ToIso('Mon, 2 Apr 2007 19:18:42 GMT')).toBe('2007-04-02T19:18:42Z');
    expect(rfc822ToIso('Mon, 16 Mar 2026 22:30:00 -0400')).toBe('2026-03-17T02:30:00Z');
    expect(rfc822Day('Mon, 16 Mar 2026 22:30:00 -0400')).toBe('2026-03-16');
    expect(rfc822Day('2 Apr 2007')).toBe('2007-04-02');
    expect(rfc822ToIso('yesterday')).toBeNull();
    expect(rfc822Day('Mon, 2 Foo 2007 19:18:42 GMT')).toBeNull();
  });
});

describe('arXiv ids', () => {
  it.each([
    ['http://arxiv.org/abs/1111.2011v2', '1111.2011', 2],
    ['https://arxiv.org/abs/astro-ph/0601001v1', 'astro-ph/0601001', 1],
    ['oai:arXiv.org:hep-th/9504118', 'hep-th/9504118', null],
    ['2603.12268v1', '2603.12268', 1],
    ['math.GT/0309136', 'math.GT/0309136', null],
  ])('%s → %s v%s', (value, id, version) => {
    expect(parseArxivRef(value)).toEqual({ id, version });
  });

  it('strips the OAI prefix only', () => {
    expect(stripOaiPrefix('oai:arXiv.org:0704.0001')).toBe('0704.0001');
    expect(stripOaiPrefix('0704.0001')).toBe('0704.0001');
  });
});

describe('author lines', () => {
  const names = (line: string): string[] => splitAuthorLine(line).map((a) => a.name);

  it('splits on commas and "and", keeping suffixes', () => {
    expect(names('A. One, B. Two, and C. Three')).toEqual(['A. One', 'B. Two', 'C. Three']);
    expect(names('Ann Anderson and\n   Andy Ng')).toEqual(['Ann Anderson', 'Andy Ng']);
    expect(names('John Smith, Jr., Ann Lee')).toEqual(['John Smith Jr.', 'Ann Lee']);
    expect(names('')).toEqual([]);
  });

  it('reads parenthesised and numbered affiliations', () => {
    expect(splitAuthorLine('A (MIT) and B (CERN, Geneva)')).toEqual([
      { name: 'A', affiliations: ['MIT'] },
      { name: 'B', affiliations: ['CERN, Geneva'] },
    ]);
    expect(splitAuthorLine('A (1,2), B (2) ((1) MIT, (2) CERN)')).toEqual([
      { name: 'A', affiliations: ['MIT', 'CERN'] },
      { name: 'B', affiliations: ['CERN'] },
    ]);
  });

  it('inverts Dublin Core creators', () => {
    expect(invertName('Liepins, Vilnis')).toBe('Vilnis Liepins');
    expect(invertName('Smith, John, Jr')).toBe('John Smith Jr');
    expect(invertName('Plato')).toBe('Plato');
  });
});

describe('XML plumbing', () => {
  const parser = createXmlParser(['item']);
  const spec = { source: 'test', kind: 'a test document', roots: ['doc'] };

  it('decodes named and numeric entities and keeps ids as strings', () => {
    const { node } = parseXmlDocument(
      parser,
      '<doc><id>0704.0010</id><t a="x&amp;y">caf&#233; &amp; &#x263A; &lt;b&gt;</t><item>1</item></doc>',
      spec,
    );
    expect(text(node.id)).toBe('0704.0010');
    expect(text(node.t)).toBe('café & ☺ <b>');
    expect(attr(node.t, 'a')).toBe('x&y');
    expect(list(node.item)).toEqual(['1']);
  });

  it('tolerates a byte-order mark and whitespace before the declaration', () => {
    const doc = '<?xml version="1.0" encoding="UTF-8"?>\r\n<doc><item>1</item></doc>\r\n';
    for (const xml of [doc, `\uFEFF${doc}`, `\n  ${doc}`]) {
      expect(parseXmlDocument(parser, xml, spec).root).toBe('doc');
    }
  });
});
