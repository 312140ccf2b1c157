/**
 * csl-data.schema.json is the Citation Style Language project's schemas/input/csl-data.json (MIT licence,
 * github.com/citation-style-language/schema at e3ce254), copied as is: it closes items to the fields CSL
 * defines (additionalProperties: false), so a misspelt field fails here.
 */
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import schema from './csl-data.schema.json' with { type: 'json' };
import { bibtexKeys } from './export-bibtex.ts';
import { cslName, cslItems, exportCslJson } from './export-csl.ts';
import { listQueue, saveToQueue } from './queue.ts';
import { at, newDoc, paper } from './test-helpers.ts';

const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

describe('CSL-JSON export', () => {
  it('writes items Zotero and pandoc read, valid against the CSL-JSON schema', () => {
    const doc = newDoc();
    saveToQueue(
      doc,
      paper('2605.01234', {
        version: 2,
        title: 'Credit assignment with $\\alpha$-returns',
        authors: ['Jörg M\\"uller', 'Ludwig van Beethoven', 'Smith, Jr., John', 'The ATLAS Collaboration'],
        abstract: 'We study $\\alpha$-returns.',
        tags: [
          { slug: 'reinforcement-learning', name: 'Reinforcement Learning' },
          { slug: 'credit-assignment-in-rl', name: 'Credit Assignment in RL' },
        ],
      }),
      'ada',
      at('2026-05-12T09:00:00Z'),
    );
    saveToQueue(
      doc,
      paper('hep-th/9901001', { version: null, tags: [], abstract: '', authors: [] }),
      'ada',
      at('2026-05-12T09:00:00Z'),
    );
    const plain = (latex: string) => latex.replace(/\$\\alpha\$/g, 'α').replace(/\\"u/g, 'ü');
    const text = exportCslJson(listQueue(doc), { plain });
    const items: unknown = JSON.parse(text);
    expect(validate(items), JSON.stringify(validate.errors)).toBe(true);
    const keys = bibtexKeys(listQueue(doc).map((q) => q.paper));
    expect(items).toEqual([
      {
        id: keys.get('2605.01234'),
        type: 'article',
        title: 'Credit assignment with α-returns',
        author: [
          { family: 'Müller', given: 'Jörg' },
          { family: 'Beethoven', given: 'Ludwig', 'non-dropping-particle': 'van' },
          { family: 'Smith', given: 'John', suffix: 'Jr.' },
          { literal: 'The ATLAS Collaboration' },
        ],
        issued: { 'date-parts': [[2026, 5]] },
        publisher: 'arXiv',
        number: 'arXiv:2605.01234',
        DOI: '10.48550/arXiv.2605.01234',
        URL: 'https://arxiv.org/abs/2605.01234',
        version: '2',
        abstract: 'We study α-returns.',
        keyword: 'Reinforcement Learning, Credit Assignment in RL',
      },
      {
        id: keys.get('hep-th/9901001'),
        type: 'article',
        title: 'Paper hep-th/9901001',
        issued: { 'date-parts': [[1999, 1]] },
        publisher: 'arXiv',
        number: 'arXiv:hep-th/9901001',
        DOI: '10.48550/arXiv.hep-th/9901001',
        URL: 'https://arxiv.org/abs/hep-th/9901001',
      },
    ]);
  });

  it('the schema check itself refuses a field CSL does not define', () => {
    const [item] = cslItems([paper('2605.01234')]);
    expect(validate([{ ...item, doi: 'lower-case is not CSL' }])).toBe(false);
  });

  it('splits names the way reference managers expect', () => {
    expect(cslName('Turing, Alan')).toEqual({ family: 'Turing', given: 'Alan' });
    expect(cslName('Vincent de la Cruz')).toEqual({
      family: 'Cruz',
      given: 'Vincent',
      'non-dropping-particle': 'de la',
    });
    expect(cslName('Martin Luther King Jr.')).toEqual({
      family: 'King',
      given: 'Martin Luther',
      suffix: 'Jr.',
    });
    expect(cslName('Plato')).toEqual({ literal: 'Plato' });
    expect(cslName('Research and Development Team')).toEqual({ literal: 'Research and Development Team' });
  });
});
