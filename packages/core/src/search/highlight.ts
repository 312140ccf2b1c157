import { foldTerm } from './search-text.ts';

/** A run of the original text; `hit` runs are words a search matched. Joined, the segments are the text. */
export interface HighlightSegment {
  text: string;
  hit: boolean;
}

// Raw words as written (accents as combining marks included), with inner hyphens and apostrophes.
const RAW_COMPOUND = /[\p{L}\p{N}\p{M}]+(?:['’\-‐‑][\p{L}\p{N}\p{M}]+)*/gu;
const RAW_PART = /[\p{L}\p{N}\p{M}]+/gu;
const MATH = /\$\$[^$]*\$\$|\$[^$]*\$/g;
const MARKS = /\p{M}/gu;
const NON_ASCII = /[^\p{ASCII}]/u;
// RAW_COMPOUND's joiners: a word without one is a single part.
const JOINER = /['’\-‐‑]/;

interface Range {
  start: number;
  end: number;
}

function foldRaw(word: string): string {
  // Most words are plain ASCII, which NFKD leaves as it is and which holds no marks: a result's abstract
  // has 150-250 words, each normalized for nothing (most of a search result's own CPU).
  if (!NON_ASCII.test(word)) return foldTerm(word.toLowerCase());
  return foldTerm(word.normalize('NFKD').replace(MARKS, '').toLowerCase());
}

/** `$…$` spans: never split, so whoever renders the maths gets it whole. */
function mathSpans(text: string): Range[] {
  return [...text.matchAll(MATH)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

function inside(ranges: readonly Range[], at: number): Range | undefined {
  return ranges.find((r) => at > r.start && at < r.end);
}

/**
 * Where the matched terms occur. `terms` are index terms as minisearch reports them (already folded, the
 * full words a prefix or typo matched), so each written word is folded the same way and compared.
 */
function hitRanges(text: string, terms: ReadonlySet<string>, math: readonly Range[]): Range[] {
  const hits: Range[] = [];
  if (terms.size === 0) return hits;
  for (const m of text.matchAll(RAW_COMPOUND)) {
    const start = m.index;
    if (inside(math, start)) continue;
    if (!JOINER.test(m[0])) {
      if (terms.has(foldRaw(m[0]))) hits.push({ start, end: start + m[0].length });
      continue;
    }
    const parts = [...m[0].matchAll(RAW_PART)];
    if (parts.length > 1 && terms.has(foldRaw(parts.map((p) => p[0]).join('')))) {
      hits.push({ start, end: start + m[0].length });
      continue;
    }
    for (const p of parts) {
      if (terms.has(foldRaw(p[0]))) hits.push({ start: start + p.index, end: start + p.index + p[0].length });
    }
  }
  return hits;
}

function segmentsOf(text: string, hits: readonly Range[], from: number, to: number): HighlightSegment[] {
  const out: HighlightSegment[] = [];
  let at = from;
  for (const hit of hits) {
    if (hit.end <= from || hit.start >= to) continue;
    if (hit.start > at) out.push({ text: text.slice(at, hit.start), hit: false });
    out.push({ text: text.slice(hit.start, hit.end), hit: true });
    at = hit.end;
  }
  if (at < to) out.push({ text: text.slice(at, to), hit: false });
  return out;
}

/** The whole text cut into matched and unmatched runs. */
export function highlight(text: string, terms: Iterable<string>): HighlightSegment[] {
  const hits = hitRanges(text, new Set(terms), mathSpans(text));
  return segmentsOf(text, hits, 0, text.length);
}

/**
 * About `width` characters around the first match (from the start when nothing matched), cut at spaces and
 * never inside `$…$`, with "…" marking what was left out.
 */
export function highlightSnippet(text: string, terms: Iterable<string>, width = 240): HighlightSegment[] {
  const math = mathSpans(text);
  const hits = hitRanges(text, new Set(terms), math);
  if (text.length <= width) return segmentsOf(text, hits, 0, text.length);
  const first = hits[0]?.start ?? 0;
  // Some words before the match give it context; most of the window follows it.
  let start = Math.max(0, Math.min(first - Math.floor(width / 4), text.length - width));
  if (start > 0) {
    const space = text.indexOf(' ', start);
    start = space === -1 || space > first ? start : space + 1;
    start = inside(math, start)?.start ?? start;
  }
  let end = Math.min(text.length, start + width);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    end = space > start && space > (hits[0]?.end ?? start) ? space : end;
    end = inside(math, end)?.end ?? end;
  }
  const out = segmentsOf(text, hits, start, end);
  if (start > 0) out.unshift({ text: '…', hit: false });
  if (end < text.length) out.push({ text: '…', hit: false });
  return out;
}
