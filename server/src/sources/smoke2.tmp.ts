import { readFileSync } from 'node:fs';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { parseOaiResponse } from './oai-pmh.ts';
const big = readFileSync('/work/shared/data/arxiv/raw/oai-pmh/litpuvn_arxiv-oai-harvester/ListRecords.xml', 'utf8');
const set = new Set(['record','setSpec','error','version','author','affiliation','creator','description','subject']);
const variants: Record<string, XMLParser> = {
  bare: new XMLParser(),
  attrs: new XMLParser({ ignoreAttributes: false }),
  attrsNoNum: new XMLParser({ ignoreAttributes: false, parseTagValue: false }),
  ns: new XMLParser({ ignoreAttributes: false, parseTagValue: false, removeNSPrefix: true }),
  html: new XMLParser({ ignoreAttributes: false, parseTagValue: false, removeNSPrefix: true, htmlEntities: true }),
  full: new XMLParser({ ignoreAttributes: false, parseTagValue: false, removeNSPrefix: true, htmlEntities: true, isArray: (n, _p, _l, a) => !a && set.has(n) }),
};
function time(name: string, f: () => unknown, n = 40) { for (let i = 0; i < 10; i++) f(); const t = performance.now(); for (let i = 0; i < n; i++) f(); const ms = (performance.now() - t) / n; console.log(name.padEnd(12), ms.toFixed(2), 'ms'); return ms; }
for (let round = 0; round < 2; round++) {
for (const [k, p] of Object.entries(variants)) time(k, () => p.parse(big));
time('validate', () => XMLValidator.validate(big));
time('oai', () => parseOaiResponse(big));
}
