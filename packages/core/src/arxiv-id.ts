/**
 * arXiv identifiers in every form people and feeds write them, reduced to one normal form:
 * new style "2604.12345" (since April 2007) or old style "hep-th/9901001", without version.
 */
import { CoreError } from './errors.ts';

export interface ArxivId {
  /** Normal form without version. */
  id: string;
  /** The version the input named ("v3" → 3), null when it named none. */
  version: number | null;
}

const NEW_STYLE = /^(\d{2})(\d{2})\.(\d{4,5})(?:v(\d+))?$/i;
// The optional subject class ("math.AG/…", "physics.acc-ph/…") was never part of the identifier proper.
const OLD_STYLE = /^([a-z]+(?:-[a-z]+)*)(?:\.[a-z]+(?:-[a-z]+)?)?\/(\d{2})(\d{2})(\d{3})(?:v(\d+))?$/i;

const URL_PREFIX = /^(?:https?:\/\/)?(?:www\.|export\.)?arxiv\.org\/(?:abs|pdf)\//i;
const OAI_PREFIX = /^oai:arxiv\.org:/i;
const ARXIV_PREFIX = /^arxiv:\s*/i;

const EXAMPLES =
  '2604.12345, 2604.12345v2, hep-th/9901001, arXiv:2604.12345 or https://arxiv.org/abs/2604.12345';

function invalidId(input: string): CoreError {
  const shown = input.length > 120 ? `${input.slice(0, 117)}...` : input;
  return new CoreError(
    'invalid-arxiv-id',
    `${JSON.stringify(shown)} is not an arXiv identifier; give one in a form such as ${EXAMPLES}.`,
  );
}

function stripDecoration(input: string): string {
  let s = input.trim().replace(/[?#].*$/, '');
  s = s.replace(/\/+$/, '');
  s = s.replace(URL_PREFIX, '').replace(OAI_PREFIX, '').replace(ARXIV_PREFIX, '');
  return s.replace(/\.pdf$/i, '').replace(/\/+$/, '');
}

function parseVersion(digits: string | undefined): number | null | undefined {
  if (digits === undefined) return null;
  const version = Number(digits);
  return version >= 1 ? version : undefined;
}

// New-style months run from 0704; the number has 4 digits up to 1412 and 5 digits from 1501.
function isValidNewStyle(yy: number, mm: number, digits: number): boolean {
  const yymm = yy * 100 + mm;
  if (mm < 1 || mm > 12 || yymm < 704) return false;
  return digits === (yymm <= 1412 ? 4 : 5);
}

// Old-style ids run from August 1991 (9108) to March 2007 (0703).
function isValidOldStyle(yy: number, mm: number): boolean {
  if (mm < 1 || mm > 12) return false;
  return yy >= 91 ? yy * 100 + mm >= 9108 : yy * 100 + mm <= 703;
}

function tryParse(input: string): ArxivId | null {
  const s = stripDecoration(input);
  const fresh = NEW_STYLE.exec(s);
  if (fresh) {
    const [, yy = '', mm = '', number = ''] = fresh;
    const version = parseVersion(fresh[4]);
    if (version === undefined || !isValidNewStyle(Number(yy), Number(mm), number.length)) return null;
    return { id: `${yy}${mm}.${number}`, version };
  }
  const old = OLD_STYLE.exec(s);
  if (old) {
    const [, archive = '', yy = '', mm = '', number = ''] = old;
    const version = parseVersion(old[5]);
    if (version === undefined || !isValidOldStyle(Number(yy), Number(mm))) return null;
    return { id: `${archive.toLowerCase()}/${yy}${mm}${number}`, version };
  }
  return null;
}

/**
 * Reads any accepted form: "2604.12345v3", "0704.0001", "hep-th/9901001v2", "math.AG/0601001",
 * "arXiv:…", "oai:arXiv.org:…", abs and pdf URLs on arxiv.org (www. and export. too), with or without ".pdf".
 * Throws CoreError('invalid-arxiv-id') otherwise.
 */
export function parseArxivId(input: string): ArxivId {
  const parsed = tryParse(input);
  if (!parsed) throw invalidId(input);
  return parsed;
}

/** The normal id without version. Throws CoreError('invalid-arxiv-id'). */
export function normaliseArxivId(input: string): string {
  return parseArxivId(input).id;
}

/**
 * For wire parsers (OAI-PMH, Atom, RSS): the id and version as `parseArxivId` reads them, or, when `input` is
 * not an arXiv id, the trimmed input as found with version null. It does not throw on purpose: a parser must
 * not fail a whole page over one bad record. The unreadable text is passed on so that `normalisePaper` rejects
 * that one record (CoreError 'invalid-arxiv-id', naming the text), which the harvesters skip and count.
 */
export function parseArxivIdLenient(input: string): ArxivId {
  return tryParse(input) ?? { id: input.trim(), version: null };
}

export function isArxivId(input: string): boolean {
  return tryParse(input) !== null;
}

/** "YYMM" of the month an id was issued in, for new and old style alike ("hep-th/9901001" → "9901"). */
export function idYearMonth(input: string): string {
  const { id } = parseArxivId(input);
  const number = id.includes('/') ? id.slice(id.indexOf('/') + 1) : id;
  return number.slice(0, 4);
}

function withVersion(input: string, version: number | null | undefined): string {
  const parsed = parseArxivId(input);
  const v = version ?? parsed.version;
  if (v !== null && !(Number.isInteger(v) && v >= 1)) throw invalidId(`${input}v${v}`);
  return v === null ? parsed.id : `${parsed.id}v${v}`;
}

/** The abstract page; a version given here or in the id pins that version. */
export function absUrl(id: string, version?: number | null): string {
  return `https://arxiv.org/abs/${withVersion(id, version)}`;
}

/** The PDF (linked, never re-hosted); a version given here or in the id pins that version. */
export function pdfUrl(id: string, version?: number | null): string {
  return `https://arxiv.org/pdf/${withVersion(id, version)}`;
}
