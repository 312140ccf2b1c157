/**
 * The small Markdown of notes and comments, parsed into a tree that components render as elements, so
 * text always reaches the page as text (no HTML string is ever built from what members typed). Supported:
 * paragraphs, headings (#–###), bullet and numbered lists, `>` quotes, fenced code, `code`, *emphasis*,
 * **strong**, `$…$` maths (rendered by the abstracts' LaTeX converter), [links](https://…) and bare web
 * addresses; links other than http(s) stay plain text.
 */
import { forwardFinder, occurrenceFinder, visit, type Finder } from '../format/linear-scan.ts';
import { capSource, RENDER_LIMIT } from '../format/render-limit.ts';

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  /** `source` keeps its dollars: it goes to latex-text.ts's richText as an abstract's maths would. */
  | { kind: 'math'; source: string }
  | { kind: 'em' | 'strong'; children: Inline[] }
  | { kind: 'link'; href: string; children: Inline[] };

export type Block =
  | { kind: 'paragraph'; lines: Inline[][] }
  | { kind: 'heading'; level: 1 | 2 | 3; inlines: Inline[] }
  | { kind: 'list'; ordered: boolean; items: Inline[][] }
  | { kind: 'quote'; blocks: Block[] }
  | { kind: 'code'; text: string };

const FENCE = /^\s*```/;
const WEB = /^https?:\/\/[^\s<>"]+$/i;
const URL_START = /^https?:\/\//i;
const BARE_URL = /^https?:\/\/[^\s<>"]*[^\s<>".,;:!?)\]'*_]/i;
const SPACE = /\s/;
/** What `.` in a pattern does not match once lines are split on "\n" and "\r" is gone. */
const LINE_SEPARATOR = /[\u2028\u2029]/;

export function safeLink(href: string): string | null {
  return WEB.test(href.trim()) ? href.trim() : null;
}

function pushText(out: Inline[], text: string): void {
  if (text === '') return;
  const last = out[out.length - 1];
  if (last?.kind === 'text') last.text += text;
  else out.push({ kind: 'text', text });
}

const WORD = /[\p{L}\p{N}]/u;

type EmphasisMarker = '**' | '__' | '*' | '_';

/**
 * The look-ahead of one run of inline text, each answer found once for the whole run (see linear-scan.ts):
 * rescanning the rest of a line at every `[` or `*` made a long note take seconds.
 */
class InlineLookahead {
  readonly #src: string;
  readonly #closers = new Map<EmphasisMarker, Finder>();
  readonly backtick: Finder;
  readonly dollar: Finder;
  readonly closingBracket: Finder;
  /** The end of a link's address: `)`, or a space, which ends it unclosed. */
  readonly addressEnd: Finder;
  /** Where a bare address must stop. */
  readonly urlStop: Finder;

  constructor(src: string) {
    this.#src = src;
    this.backtick = occurrenceFinder(src, '`');
    this.dollar = occurrenceFinder(src, '$');
    this.closingBracket = occurrenceFinder(src, ']');
    this.addressEnd = forwardFinder(src.length, (i) => src[i] === ')' || SPACE.test(src[i] ?? ''));
    this.urlStop = forwardFinder(src.length, (i) => /[\s<>"]/.test(src[i] ?? ''));
  }

  /**
   * The closing `marker` of an emphasis run whose text starts at `from`, not right after a space; -1 when
   * none. Underscores inside a word (snake_case) are not emphasis.
   */
  closer(marker: EmphasisMarker, from: number): number {
    let find = this.#closers.get(marker);
    if (find === undefined) {
      const src = this.#src;
      find = forwardFinder(src.length, (i) => {
        if (!src.startsWith(marker, i)) return false;
        if (marker.startsWith('_') && WORD.test(src[i + marker.length] ?? '')) return false;
        return src[i - 1] !== ' ' && src[i - 1] !== '\\';
      });
      this.#closers.set(marker, find);
    }
    return find(from + 1);
  }
}

function emphasisMarker(src: string, i: number): EmphasisMarker | null {
  if (src.startsWith('**', i)) return '**';
  if (src.startsWith('__', i)) return '__';
  const ch = src[i];
  return ch === '*' || ch === '_' ? ch : null;
}

/**
 * `$…$` at `i` (or `$$…$$`): where the maths ends, or -1. As in Pandoc, the opening dollar is followed and
 * the closing one preceded by a non-space, and the closing one is not followed by a digit, so "$5 and $10"
 * stays text.
 */
function mathEnd(src: string, i: number, look: InlineLookahead): number {
  const width = src[i + 1] === '$' ? 2 : 1;
  const from = i + width;
  if (from >= src.length || SPACE.test(src[from] ?? ' ')) return -1;
  let close = look.dollar(from);
  // A `$$` opening closes at the next `$$`; a single one at the next single dollar.
  while (close !== -1 && width === 2 && src[close + 1] !== '$') close = look.dollar(close + 1);
  if (close <= from || SPACE.test(src[close - 1] ?? ' ') || src[close - 1] === '\\') return -1;
  if (width === 1 && /[0-9]/.test(src[close + 1] ?? '')) return -1;
  return close + width;
}

/** `[text](https://…)` at `i`: the text, the address and where the link ends; null when there is none. */
function linkAt(
  src: string,
  i: number,
  look: InlineLookahead,
): { text: string; href: string; end: number } | null {
  const close = look.closingBracket(i + 1);
  if (close <= i + 1 || src[close + 1] !== '(') return null;
  const end = look.addressEnd(close + 2);
  if (end <= close + 2 || src[end] !== ')') return null;
  return { text: src.slice(i + 1, close), href: src.slice(close + 2, end), end: end + 1 };
}

/** A bare web address starting at `i`, without a sentence's closing punctuation. */
function bareUrlAt(src: string, i: number, look: InlineLookahead): string | null {
  if (!URL_START.test(src.slice(i, i + 8))) return null;
  // An address holds no space, < > or ": the pattern reads one such run, never the rest of the line.
  const stop = look.urlStop(i);
  const end = stop === -1 ? src.length : stop;
  visit(end - i);
  return BARE_URL.exec(src.slice(i, end))?.[0] ?? null;
}

export function parseInline(src: string, depth = 0): Inline[] {
  const out: Inline[] = [];
  const look = new InlineLookahead(src);
  let i = 0;
  // Plain text is pushed a run at a time: a string grown by one character per step got slow past ~1 MB.
  let plain = 0;
  const emit = (node: Inline | string, next: number): void => {
    pushText(out, src.slice(plain, i));
    if (typeof node === 'string') pushText(out, node);
    else out.push(node);
    i = plain = next;
  };
  while (i < src.length) {
    visit();
    const ch = src[i] ?? '';
    if (ch === '\\' && i + 1 < src.length && /[\\`*_[\]()#+\-.!$>]/.test(src[i + 1] ?? '')) {
      emit(src[i + 1] ?? '', i + 2);
      continue;
    }
    if (ch === '`') {
      const end = look.backtick(i + 1);
      if (end > i + 1) {
        emit({ kind: 'code', text: src.slice(i + 1, end) }, end + 1);
        continue;
      }
    }
    if (ch === '$') {
      const end = mathEnd(src, i, look);
      if (end !== -1) {
        emit({ kind: 'math', source: src.slice(i, end) }, end);
        continue;
      }
    }
    // Nesting is bounded: a pathological note must not blow the stack.
    if (depth < 8) {
      const marker = emphasisMarker(src, i);
      const intraword = ch === '_' && WORD.test(src[i - 1] ?? '');
      if (marker !== null && !intraword && src[i + marker.length] !== ' ') {
        const end = look.closer(marker, i + marker.length);
        if (end !== -1) {
          const children = parseInline(src.slice(i + marker.length, end), depth + 1);
          emit({ kind: marker.length === 2 ? 'strong' : 'em', children }, end + marker.length);
          continue;
        }
      }
      if (ch === '[') {
        const link = linkAt(src, i, look);
        const href = link ? safeLink(link.href) : null;
        if (link && href) {
          emit({ kind: 'link', href, children: parseInline(link.text, depth + 1) }, link.end);
          continue;
        }
      }
    }
    if ((ch === 'h' || ch === 'H') && (i === 0 || /[\s(]/.test(src[i - 1] ?? ''))) {
      const url = bareUrlAt(src, i, look);
      if (url) {
        emit({ kind: 'link', href: url, children: [{ kind: 'text', text: url }] }, i + url.length);
        continue;
      }
    }
    i += 1;
  }
  pushText(out, src.slice(plain));
  return out;
}

/**
 * The text after a block marker ending at `at` (`#`, `-`, `1.`): at least one space, then the rest of the
 * line; null when the line is not that block. Written out rather than as `\s+(.*)$`, which backtracks
 * over every space when the line holds a U+2028 (quadratic in the line's length).
 */
function afterMarker(line: string, at: number): string | null {
  let start = at;
  while (start < line.length && SPACE.test(line[start] ?? '')) start += 1;
  if (start === at) return null;
  const text = line.slice(start);
  return LINE_SEPARATOR.test(text) ? null : text;
}

function headingText(line: string): { level: 1 | 2 | 3; text: string } | null {
  let level = 0;
  while (level < 3 && line[level] === '#') level += 1;
  if (level === 0) return null;
  const text = afterMarker(line, level);
  return text === null ? null : { level: level as 1 | 2 | 3, text };
}

/** A list item's text, and whether the list is numbered. */
function listItem(line: string): { ordered: boolean; text: string } | null {
  let at = 0;
  while (at < line.length && SPACE.test(line[at] ?? '')) at += 1;
  if ('-*+'.includes(line[at] ?? '.')) {
    const text = afterMarker(line, at + 1);
    if (text !== null) return { ordered: false, text };
  }
  let digits = at;
  while (digits < line.length && /[0-9]/.test(line[digits] ?? '')) digits += 1;
  if (digits === at || digits - at > 9 || !'.)'.includes(line[digits] ?? '-')) return null;
  const text = afterMarker(line, digits + 1);
  return text === null ? null : { ordered: true, text };
}

/**
 * Splits Markdown source into blocks; every line ends up in one, so nothing typed is dropped. Past `limit`
 * characters the rest is left out, and a last paragraph says how much.
 */
export function parseMarkdown(source: string, limit: number = RENDER_LIMIT): Block[] {
  const capped = capSource(source, limit);
  const blocks = parseLines(capped.text.replace(/\r\n?/g, '\n').split('\n'), 0);
  if (capped.omitted !== null)
    blocks.push({ kind: 'paragraph', lines: [[{ kind: 'text', text: capped.omitted }]] });
  return blocks;
}

/** Quotes inside quotes are read this deep; a deeper `>` is text (a pathological note must not recurse). */
const MAX_QUOTE_DEPTH = 4;

/** A quoted line's text without its `>` and the one space after it; null when the line is not quoted. */
function quoted(line: string): string | null {
  let at = 0;
  while (at < 3 && line[at] === ' ') at += 1;
  if (line[at] !== '>') return null;
  return line.slice(line[at + 1] === ' ' ? at + 2 : at + 1);
}

function parseLines(lines: readonly string[], depth: number): Block[] {
  const blocks: Block[] = [];
  // The block that the next line may continue; a blank line or another kind of block ends it.
  let paragraph: Inline[][] | null = null;
  let list: { kind: 'list'; ordered: boolean; items: Inline[][] } | null = null;
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n] ?? '';
    visit(line.length + 1);
    if (FENCE.test(line)) {
      paragraph = list = null;
      const body: string[] = [];
      for (n += 1; n < lines.length && !FENCE.test(lines[n] ?? ''); n++) {
        visit((lines[n] ?? '').length + 1);
        body.push(lines[n] ?? '');
      }
      blocks.push({ kind: 'code', text: body.join('\n') });
      continue;
    }
    if (line.trim() === '') {
      paragraph = list = null;
      continue;
    }
    const inQuote = depth < MAX_QUOTE_DEPTH ? quoted(line) : null;
    if (inQuote !== null) {
      paragraph = list = null;
      // A run of quoted lines is one quote, its inside read as Markdown of its own.
      const inner = [inQuote];
      for (let next = quoted(lines[n + 1] ?? ''); next !== null; next = quoted(lines[n + 1] ?? '')) {
        n += 1;
        visit((lines[n] ?? '').length + 1);
        inner.push(next);
      }
      blocks.push({ kind: 'quote', blocks: parseLines(inner, depth + 1) });
      continue;
    }
    const heading = headingText(line);
    if (heading) {
      paragraph = list = null;
      blocks.push({ kind: 'heading', level: heading.level, inlines: parseInline(heading.text) });
      continue;
    }
    const item = listItem(line);
    if (item) {
      if (list === null || list.ordered !== item.ordered) {
        paragraph = null;
        list = { kind: 'list', ordered: item.ordered, items: [] };
        blocks.push(list);
      }
      list.items.push(parseInline(item.text));
      continue;
    }
    if (paragraph === null) {
      list = null;
      paragraph = [];
      blocks.push({ kind: 'paragraph', lines: paragraph });
    }
    paragraph.push(parseInline(line.trim()));
  }
  return blocks;
}
