import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { QuireError } from '../errors.ts';
import { parseAtomFeed } from './atom.ts';
import { filesUnder, rawDir } from './test-fixtures.ts';

const atomDir = join(rawDir, 'api-atom/lukasschwab_arxiv.py');
const read = (rel: string): string => readFileSync(join(atomDir, rel), 'utf8');

/** Entries per recorded feed, counted by eye and matching PROVENANCE.md where it states them. */
const ENTRIES: Record<string, number> = {
  'id_list_1111.2011v2.xml': 1,
  'search_au_del_maestro.xml': 10,
  'search_au_del_maestro_ANDNOT_ti_checkerboard_OR_ti_Pyrochlore.xml': 10,
  'search_au_del_maestro_AND_ti_checkerboard.xml': 1,
  'search_au_del_maestro_AND_ti_quantum_criticality.xml': 2,
  'id_0000.0000': 0,
  'id_0808.05394_1707.08567': 1,
  'id_0808.05394_s0': 0,
  'id_1605.08386': 1,
  'id_1707.08567': 1,
  'id_2104.12255v1': 1,
  id_abc: 0,
  'id_astro-ph_0601001': 1,
  'id_quant-ph_0201082v1': 1,
  q_testing_s0_m100: 100,
  q_testing_s0_m10_: 10,
  q_testing_s0_m15: 15,
  q_testing_s10_m10: 10,
  q_testing_s20_m10: 10,
  q_testing_s30_m10: 10,
  q_testing_s40_m10: 10,
  q_testing_s50_m10: 10,
  q_testing_s5_m10: 10,
  q_testing_s5_m15: 15,
  q_testing_s9_m15: 15,
};

function statedEntries(rel: string): number {
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  const keys = Object.keys(ENTRIES).filter((key) => name.startsWith(key));
  expect(keys, `one stated count for ${name}`).toHaveLength(1);
  return ENTRIES[keys[0] as string] as number;
}

describe('parseAtomFeed on the recorded feeds', () => {
  const xmlFiles = [
    ...filesUnder(join(atomDir, '2016_old_api_xml'), '.xml').map((f) => `2016_old_api_xml/${f}`),
  ];
  xmlFiles.push(
    ...filesUnder(join(atomDir, '2026_golden_json/extracted_bodies'), '.xml').map(
      (f) => `2026_golden_json/extracted_bodies/${f}`,
    ),
  );
  const jsonFiles = filesUnder(join(atomDir, '2026_golden_json'), '.json').map(
    (f) => `2026_golden_json/${f}`,
  );

  it('finds all 25 recorded feeds', () => {
    expect(xmlFiles).toHaveLength(25);
    expect(jsonFiles).toHaveLength(20);
  });

  it.each(xmlFiles)('%s parses with the stated number of entries', (rel) => {
    const xml = read(rel);
    const feed = parseAtomFeed(xml, rel);
    const entryElements = xml.match(/<entry>/g)?.length ?? 0;
    if (rel.includes('id_abc')) {
      expect(feed.error).toBe('incorrect id format for abc');
      expect(feed.entries).toEqual([]);
      return;
    }
    expect(feed.error).toBeNull();
    expect(feed.entries).toHaveLength(entryElements);
    expect(feed.entries).toHaveLength(statedEntries(rel));
    for (const entry of feed.entries) {
      expect(entry.id).toMatch(/^(\d{4}\.\d{4,5}|[a-z-]+(\.[A-Z]{2})?\/\d{7})$/);
      expect(entry.title).not.toBe('');
      expect(entry.submittedV1).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    }
  });

  it.each(jsonFiles)('%s body parses like its extracted copy', (rel) => {
    const recording = JSON.parse(read(rel)) as { status_code: number; body: string };
    const feed = parseAtomFeed(recording.body, rel);
    const extracted = parseAtomFeed(
      read(rel.replace('2026_golden_json/', '2026_golden_json/extracted_bodies/').replace(/\.json$/, '.xml')),
    );
    expect(feed).toEqual(extracted);
    expect(feed.error !== null).toBe(recording.status_code === 400);
  });

  it('maps a legacy (2016) entry: 1111.2011v2', () => {
    const feed = parseAtomFeed(read('2016_old_api_xml/id_list_1111.2011v2.xml'));
    expect(feed).toMatchObject({ totalResults: 1, startIndex: 0, itemsPerPage: 10, error: null });
    expect(feed.entries[0]).toEqual({
      id: '1111.2011',
      title: 'Quantum Criticality for Extended Nodes on a Bethe Lattice in the Large Connectivity Limit',
      abstract: expect.stringMatching(
        /^Theoretical description of anisotropic systems.*single node\.$/s,
      ) as unknown,
      authors: [
        { name: 'James M. Murray', affiliations: [] },
        { name: 'Adrian Del Maestro', affiliations: [] },
        { name: 'Zlatko Tesanovic', affiliations: [] },
      ],
      categories: ['cond-mat.str-el', 'cond-mat.stat-mech'],
      primaryCategory: 'cond-mat.str-el',
      versions: [
        { version: 1, submitted: '2011-11-08T18:48:36Z', size: null },
        { version: 2, submitted: '2012-04-02T12:38:54Z', size: null },
      ],
      submittedV1: '2011-11-08T18:48:36Z',
      comment: '8 pages, 3 figures. Published version',
      journalRef: 'Phys. Rev. B 85, 115117 (2012)',
      doi: '10.1103/PhysRevB.85.115117',
    });
  });

  it('maps a current (2026) entry with affiliations and entities: astro-ph/0601001', () => {
    const [entry] = parseAtomFeed(
      read('2026_golden_json/extracted_bodies/id_astro-ph_0601001_s0_m100_3150dca9dc76.xml'),
    ).entries;
    expect(entry).toMatchObject({
      id: 'astro-ph/0601001',
      categories: ['astro-ph'],
      primaryCategory: 'astro-ph',
      versions: [{ version: 1, submitted: '2006-01-02T14:57:58Z', size: null }],
      journalRef: 'ActaAstron.56:1-50,2006',
      doi: null,
    });
    expect(entry?.title).toMatch(/^Frequency of Hot Jupiters/);
    expect(entry?.authors).toHaveLength(4);
    expect(entry?.authors[0]).toEqual({ name: 'Andrew Gould', affiliations: ['Ohio State'] });
    expect(entry?.abstract).toContain('Gould & Morgan (2003)');
    expect(entry?.abstract).toContain('V_max<17.5');
  });

  it('reads the paging counts of a search', () => {
    const feed = parseAtomFeed(read('2026_golden_json/extracted_bodies/q_testing_s0_m100_cfe7536492ca.xml'));
    expect(feed).toMatchObject({ totalResults: 214881, startIndex: 0, itemsPerPage: 100 });
  });

  it('throws malformed-xml for truncated, broken or foreign documents', () => {
    const xml = read('2016_old_api_xml/search_au_del_maestro.xml');
    const cases = [xml.slice(0, xml.length / 2), '<feed><entry></feed>', 'not xml', '<rss version="2.0"/>'];
    for (const bad of cases) {
      expect(() => parseAtomFeed(bad)).toThrow(QuireError);
      expect(() => parseAtomFeed(bad)).toThrow(expect.objectContaining({ code: 'malformed-xml' }));
    }
  });
});
