import { describe, expect, it } from 'vitest';
import { attr, createXmlParser, list, parseXmlDocument, text } from './xml.ts';

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
