import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { normalisePaper, type RawPaper } from '@quire/core';
import { describe, expect, it } from 'vitest';
import { QuireError } from '../errors.ts';
import { parseOaiResponse } from './oai-pmh.ts';
import { filesUnder, rawDir } from './test-fixtures.ts';

const oaiDir = join(rawDir, 'oai-pmh');
const read = (rel: string): string => readFileSync(join(oaiDir, rel), 'utf8');

/** Record counts as PROVENANCE.md states them. */
const STATED_RECORDS: Record<string, number> = {
  'AtomikLabs_aws-iac/ListRecords_oai_dc_set-cs_2024-01-27.xml': 5,
  'mikesaelim_arXivOAIHarvester/ListRecordsResponse.xml': 6,
  'litpuvn_arxiv-oai-harvester/ListRecords.xml': 387,
  'paperhive_oai-pmh/extracted_bodies/listrecords_should-list-identifiers-from-arxiv.1.http200.xml': 2,
  'mikesaelim_arXivOAIHarvester/GetRecordResponse.xml': 1,
  'litpuvn_arxiv-oai-harvester/GetRecord.xml': 1,
  'paperhive_oai-pmh/extracted_bodies/getrecord_should-get-a-record.0.http200.xml': 1,
};

const ERROR_CODES: Record<string, string> = {
  'ErrorResponseBadArgument.xml': 'badArgument',
  'ErrorResponseBadResumptionToken.xml': 'badResumptionToken',
  'ErrorResponseBadVerb.xml': 'badVerb',
  'ErrorResponseIdDoesNotExist.xml': 'idDoesNotExist',
  'ErrorResponseNoRecordsMatch.xml': 'noRecordsMatch',
};

function expectMalformed(run: () => unknown, pattern?: RegExp): void {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(QuireError);
    expect((err as QuireError).code).toBe('malformed-xml');
    if (pattern) expect((err as QuireError).message).toMatch(pattern);
    return;
  }
  expect.fail('expected a malformed-xml QuireError');
}

describe('parseOaiResponse on the recorded responses', () => {
  const files = filesUnder(oaiDir, '.xml');

  it('finds every recorded response', () => {
    expect(files.length).toBeGreaterThanOrEqual(17);
    for (const name of Object.keys(STATED_RECORDS)) expect(files).toContain(name);
  });

  it.each(files)('%s parses with as many records as the file holds', (rel) => {
    const xml = read(rel);
    const page = parseOaiResponse(xml, rel);
    const recordCount = xml.match(/<record>/g)?.length ?? 0;
    expect(page.records.length + page.deleted.length).toBe(recordCount);
    const stated = STATED_RECORDS[rel];
    if (stated !== undefined) {
      expect(page.records).toHaveLength(stated);
      expect(page.error).toBeNull();
      expect(page.verb).toBe(
        rel.includes('GetRecord') || rel.includes('getrecord') ? 'GetRecord' : 'ListRecords',
      );
    }
    const verb = /<request[^>]*\bverb="([^"]+)"/.exec(xml)?.[1];
    if (verb) expect(page.verb).toBe(verb);
    for (const record of page.records) {
      expect(record.identifier).toMatch(/^oai:arXiv\.org:/);
      expect(record.datestamp).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(record.paper.id).not.toBe('');
      expect(record.paper.title).not.toBe('');
    }
  });

  it.each(Object.entries(ERROR_CODES))('%s reports %s without throwing', (name, code) => {
    const page = parseOaiResponse(read(`mikesaelim_arXivOAIHarvester/${name}`));
    expect(page.error?.code).toBe(code);
    expect(page.error?.message).not.toBe('');
    expect(page.records).toEqual([]);
  });

  it('reads resumption tokens', () => {
    expect(parseOaiResponse(read('litpuvn_arxiv-oai-harvester/ListRecords.xml')).resumptionToken).toEqual({
      token: '1403493|1001',
      cursor: 0,
      completeListSize: 1440,
    });
    expect(
      parseOaiResponse(read('AtomikLabs_aws-iac/ListRecords_oai_dc_set-cs_2024-01-27.xml')).resumptionToken,
    ).toEqual({ token: '6960524|1001', cursor: 0, completeListSize: 1162 });
    const last = parseOaiResponse(
      read('paperhive_oai-pmh/extracted_bodies/listrecords_should-list-identifiers-from-arxiv.1.http200.xml'),
    );
    expect(last.resumptionToken).toBeNull();
    expect(last.responseDate).toBe('2018-06-21T14:31:04Z');
  });

  it('answers Identify and the other list verbs with empty pages', () => {
    const identify = parseOaiResponse(
      read('paperhive_oai-pmh/extracted_bodies/identify_should-identify-arxiv.0.http200.xml'),
    );
    expect(identify).toMatchObject({ verb: 'Identify', records: [], error: null });
    const ids = parseOaiResponse(
      read(
        'paperhive_oai-pmh/extracted_bodies/listidentifiers_should-list-identifiers-from-arxiv.0.http200.xml',
      ),
    );
    expect(ids.verb).toBe('ListIdentifiers');
    expect(ids.records).toEqual([]);
  });

  it('does not take the recorded 503 HTML page for OAI-PMH', () => {
    const html = read(
      'paperhive_oai-pmh/extracted_bodies/listrecords_should-list-identifiers-from-arxiv.0.http503.html',
    );
    expectMalformed(() => parseOaiResponse(html, 'the 503 page'), /not an OAI-PMH response.*<html>/);
  });

  it.each(filesUnder(join(oaiDir, 'paperhive_oai-pmh'), '.json'))('nock fixture %s parses', (rel) => {
    const interactions = JSON.parse(read(`paperhive_oai-pmh/${rel}`)) as Array<{
      path: string;
      status: number;
      response: unknown;
    }>;
    expect(interactions.length).toBeGreaterThan(0);
    for (const { path, status, response } of interactions) {
      expect(typeof response).toBe('string');
      if (status !== 200) {
        expectMalformed(() => parseOaiResponse(response as string, path));
        continue;
      }
      const page = parseOaiResponse(response as string, path);
      expect(page.verb).toBe(new URLSearchParams(path.split('?')[1]).get('verb'));
      expect(page.records).toHaveLength((response as string).match(/<record>/g)?.length ?? 0);
    }
  });
});

describe('parseOaiResponse field mapping', () => {
  it('maps arXivRaw (GetRecord 1302.2146)', () => {
    const [record] = parseOaiResponse(read('mikesaelim_arXivOAIHarvester/GetRecordResponse.xml')).records;
    expect(record?.sets).toEqual(['physics:hep-ex', 'physics:hep-ph']);
    expect(record?.paper).toMatchObject({
      id: '1302.2146',
      title: 'The Same-Sign Dilepton Signature of RPV/MFV SUSY',
      categories: 'hep-ph hep-ex',
      comment: '18 pages, 6 figures; v2: References added',
      license: 'http://arxiv.org/licenses/nonexclusive-distrib/1.0/',
      submittedV1: '2013-02-08T21:00:01Z',
      versions: [
        { version: 1, submitted: '2013-02-08T21:00:01Z', size: '853kb' },
        { version: 2, submitted: '2013-04-02T01:50:08Z', size: '849kb' },
      ],
    });
    expect(record?.paper.authors).toEqual([
      { name: 'Joshua Berger', affiliations: [] },
      { name: 'Maxim Perelstein', affiliations: [] },
      { name: 'Michael Saelim', affiliations: [] },
      { name: 'Philip Tanedo', affiliations: [] },
    ]);
    expect(record?.paper.abstract).toMatch(/^The lack of observation of superpartners/);
    expect(record?.paper.abstract).toMatch(/100 fb\^-1 data set\.$/);
  });

  it('maps pretty-printed arXivRaw (litpuvn ListRecords, first record)', () => {
    const [record] = parseOaiResponse(read('litpuvn_arxiv-oai-harvester/ListRecords.xml')).records;
    expect(record?.paper.id).toBe('0803.4354');
    expect(record?.paper.title).toBe(
      'A O(n^8) X O(n^7) Linear Programming Model of the Traveling Salesman Problem',
    );
    expect(record?.paper.authors).toEqual([{ name: 'Moustapha Diaby', affiliations: [] }]);
    expect(record?.paper.versions?.map((v) => v.version)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(record?.paper.versions?.[5]).toEqual({
      version: 6,
      submitted: '2016-10-20T16:58:38Z',
      size: '0kb',
    });
  });

  it('maps the arXiv format (GetRecord 1412.8544) with affiliations and decoded entities', () => {
    const [record] = parseOaiResponse(
      read('paperhive_oai-pmh/extracted_bodies/getrecord_should-get-a-record.0.http200.xml'),
    ).records;
    expect(record?.paper).toMatchObject({
      id: '1412.8544',
      title: 'A Kochen-Specker system has at least 22 vectors (extended abstract)',
      authors: [
        { name: 'Sander Uijlen', affiliations: ['Radboud Universiteit'] },
        { name: 'Bas Westerbaan', affiliations: ['Radboud Universiteit'] },
      ],
      categories: 'cs.DM',
      submittedV1: '2014-12-29',
      versions: [{ version: 1, submitted: '2014-12-29', size: null }],
      journalRef: 'EPTCS 172, 2014, pp. 154-164',
      doi: '10.4204/EPTCS.172.11',
      comment: 'In Proceedings QPL 2014, arXiv:1412.8102',
    });
    const list = parseOaiResponse(
      read('paperhive_oai-pmh/extracted_bodies/listrecords_should-list-identifiers-from-arxiv.1.http200.xml'),
    );
    const old = list.records[1]?.paper;
    expect(old?.id).toBe('hep-th/9504118');
    expect(old?.authors).toEqual([{ name: 'M. Requardt', affiliations: [] }]);
    expect(old?.abstract).toContain('the "strength" of the bonds');
  });

  it('maps oai_dc, taking categories from the set', () => {
    const page = parseOaiResponse(read('AtomikLabs_aws-iac/ListRecords_oai_dc_set-cs_2024-01-27.xml'));
    expect(page.records[0]?.paper).toMatchObject({
      id: '1303.2033',
      title: 'Extended Fourier analysis of signals',
      authors: ['Vilnis Liepins'],
      categories: ['cs'],
      comment: '32 pages, 9 figures',
      submittedV1: '2013-03-08',
      versions: [{ version: 1, submitted: '2013-03-08', size: null }],
    });
    expect(page.records[0]?.paper.abstract).toMatch(/^This summary of the doctoral thesis/);
    const last = page.records[4]?.paper;
    expect(last?.id).toBe('2401.14040');
    expect(last?.authors).toEqual(['Francesco Periti', 'Haim Dubossarsky', 'Nina Tahmasebi']);
  });
});

const envelope = (body: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">` +
  `<responseDate>2026-05-01T00:00:00Z</responseDate>` +
  `<request verb="ListRecords" metadataPrefix="arXiv">http://export.arxiv.org/oai2</request>${body}</OAI-PMH>`;

describe('parseOaiResponse edge cases', () => {
  it('lists deleted records apart and reads an empty last token', () => {
    const page = parseOaiResponse(
      envelope(
        `<ListRecords><record><header status="deleted"><identifier>oai:arXiv.org:0704.0001</identifier>` +
          `<datestamp>2026-04-30</datestamp><setSpec>cs</setSpec></header></record>` +
          `<resumptionToken cursor="1000" completeListSize="1001"/></ListRecords>`,
      ),
    );
    expect(page.records).toEqual([]);
    expect(page.deleted).toEqual(['0704.0001']);
    expect(page.resumptionToken).toEqual({ token: null, cursor: 1000, completeListSize: 1001 });
  });

  it('passes an unreadable id on, for normalisePaper to reject that record alone', () => {
    const record = (identifier: string, id: string): string =>
      `<record><header><identifier>${identifier}</identifier><datestamp>2026-04-30</datestamp></header>` +
      `<metadata><arXiv><id>${id}</id><title>T</title><abstract>A</abstract><categories>cs.AI</categories>` +
      `</arXiv></metadata></record>`;
    const page = parseOaiResponse(
      envelope(
        `<ListRecords>${record('oai:arXiv.org:0704.0001', '0704.0001')}` +
          `${record('oai:arXiv.org:not-an-id', '')}</ListRecords>`,
      ),
    );
    const [good, bad] = page.records.map((r) => r.paper) as [RawPaper, RawPaper];
    expect([good.id, bad.id]).toEqual(['0704.0001', 'oai:arXiv.org:not-an-id']);
    expect(normalisePaper(good).id).toBe('0704.0001');
    expect(() => normalisePaper(bad)).toThrow(expect.objectContaining({ code: 'invalid-arxiv-id' }));
  });

  it('rejects a record in a metadata format it does not read', () => {
    const xml = envelope(
      `<ListRecords><record><header><identifier>oai:arXiv.org:0704.0001</identifier>` +
        `<datestamp>2026-04-30</datestamp></header><metadata><mods/></metadata></record></ListRecords>`,
    );
    expect(() => parseOaiResponse(xml)).toThrow(expect.objectContaining({ code: 'unknown-format' }));
  });

  it('throws malformed-xml for truncated pages, wherever they are cut', () => {
    const xml = read('litpuvn_arxiv-oai-harvester/ListRecords.xml');
    for (const fraction of [0.001, 0.1, 0.25, 0.5, 0.75, 0.9, 0.999]) {
      expectMalformed(
        () => parseOaiResponse(xml.slice(0, Math.floor(xml.length * fraction)), 'page'),
        /cut short/,
      );
    }
    const end = xml.trimEnd();
    expectMalformed(() => parseOaiResponse(end.slice(0, -1)), /cut short/);
    expectMalformed(() => parseOaiResponse(end.slice(0, end.lastIndexOf('</OAI-PMH>'))), /cut short/);
  });

  it('throws malformed-xml for broken or foreign documents', () => {
    expectMalformed(() => parseOaiResponse(''), /empty/);
    expectMalformed(() => parseOaiResponse('Retry after 10 seconds'));
    expectMalformed(
      () => parseOaiResponse(envelope('<ListRecords><record></ListRecords>')),
      /not well-formed/,
    );
    expectMalformed(() => parseOaiResponse(envelope('<error code="x">a & b</error>')), /not well-formed/);
    expectMalformed(
      () => parseOaiResponse('<feed xmlns="http://www.w3.org/2005/Atom"></feed>'),
      /root element is <feed>/,
    );
    expectMalformed(() => parseOaiResponse('<!DOCTYPE html><html><body><br></body></html>'), /HTML page/);
  });
});
