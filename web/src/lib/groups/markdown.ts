/**
 * The small Markdown of notes and comments, parsed into a tree that components render as elements, so
 * text always reaches the page as text (no HTML string is ever built from what members typed). Supported:
 * paragraphs, headings (#–###), bullet and numbered lists, fenced code, `code`, *emphasis*, **strong**,
 * [links](https://…) and bare web addresses; links other than http(s) stay plain text.
 */

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'em' | 'strong'; children: Inline[] }
  | { kind: 'link'; href: string; children: Inline[] };

export type Block =
  | { kind: 'paragraph'; lines: Inline[][] }
  | { kind: 'heading'; level: 1 | 2 | 3; inlines: Inline[] }
  | { kind: 'list'; ordered: boolean; items: Inline[][] }
  | { kind: 'code'; text: string };

const HEADING = /^(#{1,3})\s+(.*)$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*\d{1,9}[.)]\s+(.*)$/;
const FENCE = /^\s*```/;
const WEB = /^https?:\/\/[^\s<>"]+$/i;
const BARE_URL = /^https?:\/\/[^\s<>"]*[^\s<>".,;:!?)\]'*_]/i;

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

/**
 * The closing `marker` of an emphasis run opened at `from`, not right after a space; -1 when none.
 * Underscores inside a word (snake_case) are not emphasis.
 */
function closer(src: string, from: number, marker: string): number {
  for (let i = src.indexOf(marker, from); i !== -1; i = src.indexOf(marker, i + 1)) {
    const after = src[i + marker.length] ?? '';
    if (marker.startsWith('_') && WORD.test(after)) continue;
    if (i > from && src[i - 1] !== ' ' && src[i - 1] !== '\\') return i;
  }
  return -1;
}

export function parseInline(src: string, depth = 0): Inline[] {
  const out: Inline[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i] ?? '';
    const rest = src.slice(i);
    if (ch === '\\' && i + 1 < src.length && /[\\`*_[\]()#+\-.!]/.test(src[i + 1] ?? '')) {
      pushText(out, src[i + 1] ?? '');
      i += 2;
      continue;
    }
    if (ch === '`') {
      const end = src.indexOf('`', i + 1);
      if (end > i + 1) {
        out.push({ kind: 'code', text: src.slice(i + 1, end) });
        i = end + 1;
        continue;
      }
    }
    // Nesting is bounded: a pathological note must not blow the stack.
    if (depth < 8) {
      const marker = rest.startsWith('**')
        ? '**'
        : rest.startsWith('__')
          ? '__'
          : ch === '*' || ch === '_'
            ? ch
            : '';
      const intraword = ch === '_' && WORD.test(src[i - 1] ?? '');
      if (marker !== '' && !intraword && src[i + marker.length] !== ' ') {
        const end = closer(src, i + marker.length, marker);
        if (end !== -1) {
          const children = parseInline(src.slice(i + marker.length, end), depth + 1);
          out.push({ kind: marker.length === 2 ? 'strong' : 'em', children });
          i = end + marker.length;
          continue;
        }
      }
      if (ch === '[') {
        const link = /^\[([^\]]+)\]\(([^)\s]+)\)/.exec(rest);
        const href = link ? safeLink(link[2] ?? '') : null;
        if (link && href) {
          out.push({ kind: 'link', href, children: parseInline(link[1] ?? '', depth + 1) });
          i += link[0].length;
          continue;
        }
      }
    }
    if ((ch === 'h' || ch === 'H') && (i === 0 || /[\s(]/.test(src[i - 1] ?? ''))) {
      const url = BARE_URL.exec(rest);
      if (url) {
        out.push({ kind: 'link', href: url[0], children: [{ kind: 'text', text: url[0] }] });
        i += url[0].length;
        continue;
      }
    }
    pushText(out, ch);
    i += 1;
  }
  return out;
}

/** Splits Markdown source into blocks; every line ends up in one, so nothing typed is dropped. */
export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  // The block that the next line may continue; a blank line or another kind of block ends it.
  let paragraph: Inline[][] | null = null;
  let list: { kind: 'list'; ordered: boolean; items: Inline[][] } | null = null;
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n] ?? '';
    if (FENCE.test(line)) {
      paragraph = list = null;
      const body: string[] = [];
      for (n += 1; n < lines.length && !FENCE.test(lines[n] ?? ''); n++) body.push(lines[n] ?? '');
      blocks.push({ kind: 'code', text: body.join('\n') });
      continue;
    }
    if (line.trim() === '') {
      paragraph = list = null;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      paragraph = list = null;
      const level = (heading[1] ?? '#').length as 1 | 2 | 3;
      blocks.push({ kind: 'heading', level, inlines: parseInline(heading[2] ?? '') });
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    const item = bullet ?? numbered;
    if (item) {
      const ordered = numbered !== null;
      if (list === null || list.ordered !== ordered) {
        paragraph = null;
        list = { kind: 'list', ordered, items: [] };
        blocks.push(list);
      }
      list.items.push(parseInline(item[1] ?? ''));
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
