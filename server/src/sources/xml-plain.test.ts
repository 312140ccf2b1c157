import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { filesUnder, rawDir } from './test-fixtures.ts';
import { readPlainXml } from './xml-plain.ts';
import { findXmlFault } from './xml-well-formed.ts';
import { createXmlParser } from './xml.ts';

const reader = createXmlParser(['record', 'setSpec', 'error', 'version', 'author', 'entry', 'item']);

/** fast-xml-parser's reading of `xml`, without the declaration's entry, which parseXmlDocument skips. */
function reference(xml: string): unknown {
  const doc = reader.parser.parse(xml) as Record<string, unknown>;
  delete doc['?xml'];
  return doc;
}

/** The plain reading of `xml` (null when left to fast-xml-parser), checked to be fast-xml-parser's own. */
function readBoth(xml: string): unknown {
  const plain = readPlainXml(xml, reader.repeated);
  // Key order counts too: messages list an element's children as found.
  if (plain !== null) expect(JSON.stringify(plain)).toBe(JSON.stringify(reference(xml)));
  return plain;
}

describe('readPlainXml', () => {
  it('reads every arXiv recording exactly as fast-xml-parser does, the OAI-PMH ones itself', () => {
    let plain = 0;
    for (const file of [...filesUnder(rawDir, '.xml'), ...filesUnder(rawDir, '.br')]) {
      const bytes = readFileSync(join(rawDir, file));
      const xml = (file.endsWith('.br') ? brotliDecompressSync(bytes) : bytes).toString('utf8').trimStart();
      if (!xml.startsWith('<') || findXmlFault(xml)) continue;
      const read = readBoth(xml);
      if (read !== null) plain++;
      if (file.startsWith('oai-pmh/')) expect(read, file).not.toBeNull();
    }
    expect(plain).toBeGreaterThan(10);
  });

  it('reads attributes, repeated tags, prefixes and the predefined entities as fast-xml-parser does', () => {
    const cases = [
      '<a/>',
      '<a>  </a>',
      '<a x="1"> t </a>',
      '<a x="1"><b>q</b></a>',
      '<a><b>1</b><r>2</r><b>3</b><c/></a>',
      '<a><record/><record x="1"/></a>',
      '<ns:a xmlns:ns="u" xmlns="v" ns:x="1" y="2"><ns:b>k</ns:b></ns:a>',
      '<a> &lt;x&gt; &amp;amp; &quot;q&quot; &apos; </a>',
      '<a x="&amp;#65;">&amp;#233; &amp;lt; &amp;nbsp; x &amp; y; z</a>',
      `<a x=" &lt;&amp;&quot; " y='s' x:y="t"/>`,
      '<a x = "1" >z</a >',
      '<?xml version="1.0" encoding="UTF-8"?>\r\n<a>\r\n line1\r\n line2 \r</a>\r\n',
      '<a xmlns:x="1"><b x="1">  </b></a>',
      '<a>\u00a0v\u00a0</a>',
    ];
    for (const xml of cases) expect(readBoth(xml), xml).not.toBeNull();
  });

  it('leaves everything else to fast-xml-parser', () => {
    const cases = [
      '<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>',
      '<a><!-- c --><b/></a>',
      '<a><![CDATA[x]]></a>',
      '<a><?pi x?></a>',
      '<a>&#233;</a>',
      '<a>&nbsp;</a>',
      '<a x="&#65;"/>',
      '<a>t<b>u</b></a>',
      '<a><b>u</b>v</a>',
      '<a><constructor>1</constructor></a>',
      '<a><toString/></a>',
      '<a><b:c:d/></a>',
      '<a><café/></a>',
      '<a x/>',
      '<record/>',
    ];
    for (const xml of cases) expect(readPlainXml(xml, reader.repeated), xml).toBeNull();
  });

  it('agrees with fast-xml-parser on generated documents', () => {
    const names = ['a', 'b', 'x:c', 'record', 'item', 'd.e', 'f-g', '_h', 'xmlnsq', 'toString', 'ns:record'];
    const texts = ['', ' ', 'x', ' y z ', '&amp;', '&lt;a&gt;', '&amp;amp;', '&#233;', '&nbsp;', '\n t \n'];
    const attrs = [
      '',
      ' x="1"',
      " y='2'",
      ' xmlns="u"',
      ' p:z="3"',
      ' x="1" x="2"',
      ' w="  s  "',
      ' v="a&amp;b"',
    ];
    let seed = 7;
    const pick = <T>(from: readonly T[]): T => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return from[seed % from.length] as T;
    };
    const element = (depth: number): string => {
      const name = pick(names);
      const open = `<${name}${pick(attrs)}`;
      const shape = pick(depth > 3 ? [0, 1] : [0, 1, 2, 2, 2]);
      if (shape === 0) return `${open}/>`;
      if (shape === 1) return `${open}>${pick(texts)}</${name}>`;
      const inner = Array.from(
        { length: pick([0, 1, 2, 3]) },
        () => pick(['', '\n ', pick(texts)]) + element(depth + 1),
      );
      return `${open}>${inner.join('')}${pick(['', '', pick(texts)])}</${name} >`;
    };
    let plain = 0;
    for (let i = 0; i < 3000; i++) {
      const xml = `${pick(['', '<?xml version="1.0"?>\n'])}<root${pick(attrs)}>${element(0)}${element(0)}</root>\n`;
      if (findXmlFault(xml)) continue;
      if (readBoth(xml) !== null) plain++;
    }
    expect(plain).toBeGreaterThan(500);
  });
});
