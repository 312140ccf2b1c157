import type { CorpusPaper } from './corpus.ts';
import { formatArxivRawDate } from './calendar.ts';
import { createdDay, licenceOf, sourceSizeKb, submitterOf, v1SubmittedMs } from './synthetic.ts';
import { escapeAttr } from './xml.ts';

/** The two metadata formats the replay server disseminates, spelled as arXiv spells them. */
export type MetadataPrefix = 'arXiv' | 'arXivRaw';

export const METADATA_PREFIXES: readonly MetadataPrefix[] = ['arXiv', 'arXivRaw'];

const XSI = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';

/** arXiv files physics archives under `physics:<archive>`; the other groups are sets of their own. */
const PHYSICS_ARCHIVES = new Set([
  'astro-ph',
  'cond-mat',
  'gr-qc',
  'hep-ex',
  'hep-lat',
  'hep-ph',
  'hep-th',
  'math-ph',
  'nlin',
  'nucl-ex',
  'nucl-th',
  'physics',
  'quant-ph',
]);
const GROUP_SETS = new Set(['cs', 'econ', 'eess', 'math', 'physics', 'q-bio', 'q-fin', 'stat']);

function setSpecOf(category: string): string {
  const archive = category.split('.')[0] ?? category;
  return PHYSICS_ARCHIVES.has(archive) ? `physics:${archive}` : archive;
}

const specCache = new WeakMap<object, readonly string[]>();

export function setSpecsOf(paper: Pick<CorpusPaper, 'categories'>): readonly string[] {
  let specs = specCache.get(paper);
  if (!specs) {
    specs = [...new Set(paper.categories.map(setSpecOf))].sort();
    specCache.set(paper, specs);
  }
  return specs;
}

export function isKnownSet(spec: string): boolean {
  if (GROUP_SETS.has(spec)) return true;
  const [group, archive, ...rest] = spec.split(':');
  return group === 'physics' && archive !== undefined && PHYSICS_ARCHIVES.has(archive) && rest.length === 0;
}

/** A record is in set `physics` when any of its specs is `physics:…`, as with arXiv's hierarchical sets. */
export function inSet(paper: Pick<CorpusPaper, 'categories'>, spec: string): boolean {
  return setSpecsOf(paper).some((own) => own === spec || own.startsWith(`${spec}:`));
}

/** OAI content is escaped the way arXiv does it, quotes included. */
const text = (name: string, value: string): string => `<${name}>${escapeAttr(value)}</${name}>`;

export function recordHeaderXml(paper: CorpusPaper): string {
  const specs = setSpecsOf(paper)
    .map((spec) => ` <setSpec>${escapeAttr(spec)}</setSpec>\n`)
    .join('');
  return (
    '<header>\n' +
    ` <identifier>oai:arXiv.org:${escapeAttr(paper.id)}</identifier>\n` +
    ` <datestamp>${paper.date}</datestamp>\n` +
    specs +
    '</header>\n'
  );
}

/** Splits at the last space, so `forenames + ' ' + keyname` gives the corpus name back. */
export function splitAuthorName(name: string): { keyname: string; forenames: string | null } {
  const trimmed = name.trim();
  const cut = trimmed.lastIndexOf(' ');
  if (cut < 0) return { keyname: trimmed, forenames: null };
  return { keyname: trimmed.slice(cut + 1), forenames: trimmed.slice(0, cut) };
}

/** arXivRaw's author line: "A, B and C". */
export function joinAuthors(authors: readonly string[]): string {
  if (authors.length <= 1) return authors[0] ?? '';
  return `${authors.slice(0, -1).join(', ')} and ${authors[authors.length - 1] ?? ''}`;
}

function arxivMetadata(paper: CorpusPaper): string {
  const authors = paper.authors
    .map((name) => {
      const { keyname, forenames } = splitAuthorName(name);
      return `<author>${text('keyname', keyname)}${forenames === null ? '' : text('forenames', forenames)}</author>`;
    })
    .join('');
  return (
    ` <arXiv xmlns="http://arxiv.org/OAI/arXiv/" ${XSI} xsi:schemaLocation="http://arxiv.org/OAI/arXiv/ http://arxiv.org/OAI/arXiv.xsd">\n` +
    ` ${text('id', paper.id)}${text('created', createdDay(paper))}<authors>${authors}</authors>` +
    text('title', paper.title) +
    text('categories', paper.categories.join(' ')) +
    (paper.comment === null ? '' : text('comments', paper.comment)) +
    text('license', licenceOf(paper.id)) +
    `${text('abstract', paper.abstract)}</arXiv>\n`
  );
}

function arxivRawMetadata(paper: CorpusPaper): string {
  const version =
    '<version version="v1">' +
    text('date', formatArxivRawDate(v1SubmittedMs(paper))) +
    text('size', sourceSizeKb(paper.id)) +
    '<source_type>D</source_type></version>';
  return (
    ` <arXivRaw xmlns="http://arxiv.org/OAI/arXivRaw/" ${XSI} xsi:schemaLocation="http://arxiv.org/OAI/arXivRaw/ http://arxiv.org/OAI/arXivRaw.xsd">\n` +
    ` ${text('id', paper.id)}${text('submitter', submitterOf(paper))}${version}` +
    text('title', paper.title) +
    text('authors', joinAuthors(paper.authors)) +
    text('categories', paper.categories.join(' ')) +
    (paper.comment === null ? '' : text('comments', paper.comment)) +
    text('license', licenceOf(paper.id)) +
    `${text('abstract', paper.abstract)}</arXivRaw>\n`
  );
}

export function recordXml(paper: CorpusPaper, prefix: MetadataPrefix): string {
  const metadata = prefix === 'arXiv' ? arxivMetadata(paper) : arxivRawMetadata(paper);
  return `<record>\n${recordHeaderXml(paper)}<metadata>\n${metadata}</metadata>\n</record>\n`;
}
