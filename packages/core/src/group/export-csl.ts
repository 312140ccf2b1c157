/**
 * The queue as CSL-JSON, what Zotero imports and pandoc and citeproc cite from: one "article" item per
 * paper with arXiv as publisher and the arXiv identifier as number (as Zotero itself writes preprints), the
 * DOI arXiv registers, the version, the abstract and the topics as keywords. Ids are the BibTeX export's
 * citation keys, so a document citing @vaswani2017attention works with either file.
 *
 * CSL has no LaTeX: titles and abstracts go through `plain`, which the web client gives its own LaTeX
 * converter (the one that renders abstracts); without it the text is kept as arXiv wrote it.
 */
import { absUrl } from '../arxiv-id.ts';
import { normaliseText } from '../text-normalise.ts';
import { arxivDoi, bibtexKeys, monthOf, yearOf } from './export-bibtex.ts';
import type { PaperSnapshot } from './paper-snapshot.ts';

export interface CslName {
  family?: string;
  given?: string;
  'non-dropping-particle'?: string;
  suffix?: string;
  literal?: string;
}

export interface CslItem {
  id: string;
  type: 'article';
  title: string;
  author?: CslName[];
  issued: { 'date-parts': [[number, number]] };
  publisher: 'arXiv';
  number: string;
  DOI: string;
  URL: string;
  version?: string;
  abstract?: string;
  keyword?: string;
}

export interface CslOptions {
  /** LaTeX source to readable text; default: as written. */
  plain?: (latex: string) => string;
}

// Lower-case words that belong to the surname ("Ludwig van Beethoven", "Vincent de la Cruz").
const PARTICLES = new Set([
  'van',
  'von',
  'de',
  'der',
  'den',
  'del',
  'della',
  'di',
  'da',
  'du',
  'la',
  'le',
  'ten',
  'ter',
  'dos',
  'das',
]);
const SUFFIX = /^(jr|sr|ii|iii|iv)\.?$/i;
// Author lists on arXiv name collaborations and teams beside people.
const GROUP = /\b(and|team|collaboration|consortium|group|project|lab|laboratory|institute|university)\b/i;

/** "Ada Lovelace" → family and given; "Smith, Jr., John" and "Turing, Alan" as BibTeX reads them. */
export function cslName(raw: string, plain: (text: string) => string = (t) => t): CslName {
  const name = normaliseText(plain(raw));
  if (GROUP.test(name)) return { literal: name };
  const parts = name.split(',').map((p) => p.trim());
  if (parts.length >= 2 && parts[0] !== '') {
    const [family = '', second = '', third] = parts;
    if (third !== undefined && SUFFIX.test(second)) return withParticle(family, third, second);
    return withParticle(family, parts.slice(1).join(', '));
  }
  const words = name.split(' ').filter((w) => w !== '');
  const suffix = words.length > 2 && SUFFIX.test(words.at(-1) ?? '') ? words.pop() : undefined;
  if (words.length < 2) return { literal: name };
  let start = words.length - 1;
  while (start > 1 && PARTICLES.has(words[start - 1] ?? '')) start -= 1;
  const given = words.slice(0, start).join(' ');
  const surname = words.slice(start);
  const particle = surname.length > 1 ? surname.slice(0, -1).join(' ') : undefined;
  return {
    family: surname.at(-1) ?? '',
    given,
    ...(particle ? { 'non-dropping-particle': particle } : {}),
    ...(suffix ? { suffix } : {}),
  };
}

function withParticle(family: string, given: string, suffix?: string): CslName {
  const words = family.split(' ');
  let start = 0;
  while (start < words.length - 1 && PARTICLES.has(words[start] ?? '')) start += 1;
  const particle = words.slice(0, start).join(' ');
  return {
    family: words.slice(start).join(' '),
    ...(given !== '' ? { given } : {}),
    ...(particle !== '' ? { 'non-dropping-particle': particle } : {}),
    ...(suffix ? { suffix } : {}),
  };
}

export function cslItem(paper: PaperSnapshot, id: string, options: CslOptions = {}): CslItem {
  const plain = options.plain ?? ((text: string) => text);
  const item: CslItem = {
    id,
    type: 'article',
    title: normaliseText(plain(paper.title)),
    issued: { 'date-parts': [[Number(yearOf(paper.id)), monthOf(paper.id)]] },
    publisher: 'arXiv',
    number: `arXiv:${paper.id}`,
    DOI: arxivDoi(paper.id),
    URL: absUrl(paper.id),
  };
  if (paper.authors.length > 0) item.author = paper.authors.map((a) => cslName(a, plain));
  if (paper.version !== null) item.version = String(paper.version);
  const abstract = normaliseText(plain(paper.abstract));
  if (abstract !== '') item.abstract = abstract;
  const keywords = [...new Set(paper.tags.map((t) => t.name.trim()).filter((k) => k !== ''))];
  if (keywords.length > 0) item.keyword = keywords.join(', ');
  return item;
}

/** The papers as a CSL-JSON array, in the order given, each paper once. */
export function cslItems(
  items: readonly ({ paper: PaperSnapshot } | PaperSnapshot)[],
  options: CslOptions = {},
): CslItem[] {
  const papers = items.map((item) => ('paper' in item ? item.paper : item));
  const unique = papers.filter((p, i) => papers.findIndex((q) => q.id === p.id) === i);
  const keys = bibtexKeys(unique);
  return unique.map((paper) => cslItem(paper, keys.get(paper.id) ?? paper.id, options));
}

/** The .json file Zotero and pandoc read. */
export function exportCslJson(
  items: readonly ({ paper: PaperSnapshot } | PaperSnapshot)[],
  options: CslOptions = {},
): string {
  return `${JSON.stringify(cslItems(items, options), null, 2)}\n`;
}
