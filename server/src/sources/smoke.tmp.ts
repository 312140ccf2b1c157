import { readFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { parseOaiResponse } from './oai-pmh.ts';
const dir = '/work/shared/data/arxiv/raw/oai-pmh/';
for (const f of ['litpuvn_arxiv-oai-harvester/ListRecords.xml', 'AtomikLabs_aws-iac/ListRecords_oai_dc_set-cs_2024-01-27.xml', 'paperhive_oai-pmh/extracted_bodies/getrecord_should-get-a-record.0.http200.xml', 'mikesaelim_arXivOAIHarvester/GetRecordResponse.xml', 'mikesaelim_arXivOAIHarvester/ErrorResponseBadVerb.xml']) {
  const p = parseOaiResponse(readFileSync(dir + f, 'utf8'), f);
  console.log(f, p.verb, p.records.length, p.resumptionToken, p.error);
  console.log("");
}
const big = readFileSync(dir + 'litpuvn_arxiv-oai-harvester/ListRecords.xml', 'utf8');
const bare = new XMLParser();
function time(name: string, f: () => unknown, n = 40) { for (let i = 0; i < 10; i++) f(); const t = performance.now(); for (let i = 0; i < n; i++) f(); const ms = (performance.now() - t) / n; console.log(name, ms.toFixed(2), 'ms'); return ms; }
const a = time('bare', () => bare.parse(big));
const b = time('parseOaiResponse', () => parseOaiResponse(big));
const c = time('bare', () => bare.parse(big));
console.log('ratio', ((a + c) / 2 / b).toFixed(2));
