/**
 * The queue as BibTeX: one @misc entry per paper in arXiv's recommended form (eprint, archivePrefix,
 * primaryClass, url), with the DOI arXiv registers for every paper (10.48550/arXiv.<id>, which Zotero and
 * others match duplicates by), the month, the version the group saved, the abstract and the paper's topics
 * as keywords. arXiv metadata is LaTeX source, so commands, accents ("M\"uller") and $math$ pass through;
 * only what would break BibTeX or LaTeX is escaped.
 */
import { absUrl, idYearMonth } from '../arxiv-id.ts';
import { normaliseText } from '../text-normalise.ts';
import type { PaperSnapshot } from './paper-snapshot.ts';
import { byCodeUnits } from './peer-values.ts';

/** BibTeX counts every brace, escaped or not, to find where a value ends. */
function bracesBalance(text: string): boolean {
  let depth = 0;
  for (const ch of text) {
    if (ch === '{') depth += 1;
    else if (ch === '}' && --depth < 0) return false;
  }
  return depth === 0;
}

/** Positions of the "$" that open or close math; none when they do not pair up. */
function mathDelimiters(text: string): Set<number> {
  const at: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === '$') at.push(i);
  }
  return at.length % 2 === 0 ? new Set(at) : new Set();
}

const TEXT_ESCAPES: Record<string, string> = {
  '&': '\\&',
  '%': '\\%',
  '#': '\\#',
  _: '\\_',
  '^': '\\^{}',
  $: '\\$',
};
// Inside math "_" and "^" are sub- and superscripts, but these still end a line or break alignment.
const MATH_ESCAPES: Record<string, string> = { '&': '\\&', '%': '\\%', '#': '\\#' };

/**
 * A value that BibTeX reads whole and LaTeX typesets: "&", "%", "#", "_" and "^" outside math are escaped,
 * unpaired "$" too; a backslash that starts no command becomes \textbackslash{}. Balanced braces are kept
 * (arXiv titles use them for grouping, "{BERT}"); when they do not balance, every brace becomes
 * \textbraceleft{} / \textbraceright{}, since an escaped "\{" still counts in BibTeX.
 */
export function escapeBibtex(input: string): string {
  const text = normaliseText(input);
  const keepBraces = bracesBalance(text);
  const math = mathDelimiters(text);
  let inMath = false;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text.charAt(i);
    const next = text.charAt(i + 1);
    if (ch === '{' || ch === '}') {
      out += keepBraces ? ch : ch === '{' ? '\\textbraceleft{}' : '\\textbraceright{}';
    } else if (ch === '\\') {
      if (/[A-Za-z]/.test(next)) {
        const command = /^\\[A-Za-z]+/.exec(text.slice(i))?.[0] ?? '\\';
        out += command;
        i += command.length - 1;
      } else if ((next === '{' || next === '}') && !keepBraces) {
        continue;
      } else if (next !== '' && /[^\sA-Za-z0-9]/.test(next)) {
        out += ch + next;
        i += 1;
      } else {
        out += '\\textbackslash{}';
      }
    } else if (ch === '$' && math.has(i)) {
      inMath = !inMath;
      out += ch;
    } else {
      out += (inMath ? MATH_ESCAPES[ch] : TEXT_ESCAPES[ch]) ?? ch;
    }
  }
  return out;
}

function authorField(names: readonly string[]): string {
  return names
    .map((name) => {
      const escaped = escapeBibtex(name);
      // " and " separates names and a comma splits "Last, First": such a name is kept whole.
      return /\band\b|,/i.test(escaped) ? `{${escaped}}` : escaped;
    })
    .join(' and ');
}

/** The year an id was issued in: arXiv's own BibTeX dates a paper by its first version, as the id does. */
export function yearOf(paperId: string): string {
  const yy = Number(idYearMonth(paperId).slice(0, 2));
  return String(yy >= 91 ? 1900 + yy : 2000 + yy);
}

/** The month an id was issued in, 1–12. */
export function monthOf(paperId: string): number {
  return Number(idYearMonth(paperId).slice(2, 4));
}

/** The DOI arXiv's DataCite registration gives every paper. */
export function arxivDoi(paperId: string): string {
  return `10.48550/arXiv.${paperId}`;
}

// BibTeX's month macros: styles print them in their own language and form ("May", "5").
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

const KEY_STOPWORDS = new Set(
  'a an the on of in for to toward towards and with via from at by is are do does can what when how why'.split(
    ' ',
  ),
);

/** Plain lowercase ASCII letters and digits of some LaTeX text ("M\"uller" → "muller", "$\alpha$" → ""). */
function keyWords(text: string): string[] {
  return text
    .replace(/\$[^$]*\$/g, ' ')
    .replace(/\\[^A-Za-z\s]/g, '')
    .replace(/\\[A-Za-z]+/g, '')
    .replace(/[{}]/g, '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}

function baseKey(paper: PaperSnapshot): string {
  const surname = keyWords(paper.authors[0] ?? '').at(-1) ?? 'anon';
  const word =
    keyWords(paper.title).find((w) => w.length > 1 && !/^\d+$/.test(w) && !KEY_STOPWORDS.has(w)) ?? '';
  return `${surname}${yearOf(paper.id)}${word}`;
}

/**
 * Citation keys "surname" + year + first title word ("vaswani2017attention"). Papers sharing a key are told
 * apart by arXiv id: the smallest id keeps the plain key, the others get "-<id>", so a key never depends on
 * the order of the list.
 */
export function bibtexKeys(papers: readonly PaperSnapshot[]): Map<string, string> {
  const byBase = new Map<string, string[]>();
  for (const paper of papers) {
    const base = baseKey(paper);
    const ids = byBase.get(base) ?? [];
    if (!ids.includes(paper.id)) ids.push(paper.id);
    byBase.set(base, ids);
  }
  const keys = new Map<string, string>();
  for (const [base, ids] of byBase) {
    ids
      .sort(byCodeUnits)
      .forEach((id, i) => keys.set(id, i === 0 ? base : `${base}-${id.replace(/\//g, '-')}`));
  }
  return keys;
}

export function bibtexEntry(paper: PaperSnapshot, key: string): string {
  // A value is braced, except a month macro, which must stay bare for styles to read it.
  const braced = (value: string): string => `{${value}}`;
  const fields: [string, string][] = [['title', braced(`{${escapeBibtex(paper.title)}}`)]];
  if (paper.authors.length > 0) fields.push(['author', braced(authorField(paper.authors))]);
  fields.push(['year', braced(yearOf(paper.id))]);
  const month = MONTHS[monthOf(paper.id) - 1];
  if (month) fields.push(['month', month]);
  fields.push(['eprint', braced(paper.id)], ['archivePrefix', braced('arXiv')]);
  if (paper.primaryCategory !== '')
    fields.push(['primaryClass', braced(escapeBibtex(paper.primaryCategory))]);
  if (paper.version !== null) fields.push(['version', braced(String(paper.version))]);
  fields.push(['doi', braced(arxivDoi(paper.id))], ['url', braced(absUrl(paper.id))]);
  const abstract = paper.abstract.trim();
  if (abstract !== '') fields.push(['abstract', braced(escapeBibtex(abstract))]);
  const keywords = [...new Set(paper.tags.map((t) => escapeBibtex(t.name)).filter((k) => k !== ''))];
  if (keywords.length > 0) fields.push(['keywords', braced(keywords.join(', '))]);
  return `@misc{${key},\n${fields.map(([name, value]) => `  ${name} = ${value}`).join(',\n')}\n}`;
}

/** The papers as a .bib file, in the order given (queue items or snapshots). */
export function exportBibtex(items: readonly ({ paper: PaperSnapshot } | PaperSnapshot)[]): string {
  const papers = items.map((item) => ('paper' in item ? item.paper : item));
  const unique = papers.filter((p, i) => papers.findIndex((q) => q.id === p.id) === i);
  const keys = bibtexKeys(unique);
  return (
    unique.map((paper) => bibtexEntry(paper, keys.get(paper.id) ?? paper.id)).join('\n\n') +
    (unique.length ? '\n' : '')
  );
}
