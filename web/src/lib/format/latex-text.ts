/**
 * Readable text from the LaTeX that arXiv titles and abstracts carry: `$O(N \log N)$`, `98$\times$`,
 * `\textbf{ours}`, `$\mathbb{R}^d$`. Not a TeX engine: it knows the common commands, turns them into Unicode
 * and a few inline elements, and shows anything else as written. The result is a tree of plain strings and
 * known tags, rendered by RichText.svelte without innerHTML, so no text from a paper can become markup.
 */
import { FUNCTIONS, GREEK_LOWER, OPERATORS } from './latex-symbols.ts';
import { own } from './own-key.ts';
import { commonCommand, MATH, TEXT, UPRIGHT_MATH, type ArgumentReader, type Mode } from './latex-commands.ts';
import { finishMath, type Item } from './math-spacing.ts';
import { forwardFinder, occurrenceFinder, visit, type Finder } from './linear-scan.ts';
import { capSource, RENDER_LIMIT } from './render-limit.ts';
import { el, plainText, pushNode, pushText, type RichElement, type RichNode } from './rich-text.ts';

export { plainText, type RichElement, type RichNode, type RichTag } from './rich-text.ts';

/** Deeper nesting than any real abstract has is shown as written, so hostile input cannot exhaust the stack. */
const MAX_DEPTH = 40;
/** An inline formula longer than this is more likely two stray dollar signs around prose. */
const MAX_MATH = 600;

class Parser implements ArgumentReader {
  readonly #src: string;
  #pos = 0;
  #depth = 0;
  // Closing delimiters, each looked for once per parse (linear-scan.ts), made when first needed.
  #finders = new Map<string, Finder>();

  constructor(src: string) {
    this.#src = src;
  }

  private finder(key: string, make: () => Finder): Finder {
    let find = this.#finders.get(key);
    if (find === undefined) {
      find = make();
      this.#finders.set(key, find);
    }
    return find;
  }

  /** A whole title or abstract, in text mode. */
  document(): RichNode[] {
    return this.textSeq(false);
  }

  /** Text until the end, or until the closing brace of the group being read. */
  textSeq(inGroup: boolean): RichNode[] {
    const out: RichNode[] = [];
    const src = this.#src;
    while (this.#pos < src.length) {
      visit();
      const ch = src[this.#pos] as string;
      if (ch === '}') {
        this.#pos += 1;
        if (inGroup) return out;
        continue; // a stray closing brace is dropped, as LaTeX would complain about it
      }
      if (ch === '{') {
        this.#pos += 1;
        for (const node of this.nested(() => this.textSeq(true))) pushNode(out, node);
        continue;
      }
      if (ch === '$') {
        const math = this.inlineMath();
        if (math) out.push(math);
        else {
          pushText(out, '$');
          this.#pos += 1;
        }
        continue;
      }
      if (ch === '\\') {
        const delimited = this.delimitedMath();
        if (delimited) out.push(delimited);
        else for (const node of this.command(TEXT)) pushNode(out, node);
        continue;
      }
      // A tie before a command ("Theorem~\\ref{…}") is a space; elsewhere "~" means "about" ("~50%").
      if (ch === '~' && src[this.#pos + 1] === '\\') {
        pushText(out, '\u00a0');
        this.#pos += 1;
        continue;
      }
      // Plain text up to the next character that means something; TeX's dashes become real ones.
      let end = this.#pos + 1;
      while (end < src.length && !'{}$\\~'.includes(src[end] as string)) end += 1;
      visit(end - this.#pos);
      pushText(
        out,
        src.slice(this.#pos, end).replace(/(?<=\s)---?(?=\s)/g, (d) => (d.length === 3 ? '—' : '–')),
      );
      this.#pos = end;
    }
    return out;
  }

  /** `$…$` or `$$…$$` at the cursor, by pandoc's rule: no space just inside, no digit just after. */
  private inlineMath(): RichElement | null {
    const src = this.#src;
    const display = src.startsWith('$$', this.#pos);
    const open = display ? 2 : 1;
    const start = this.#pos + open;
    const first = src[start];
    if (first === undefined || /\s/.test(first) || first === '$') return null;
    const i = display ? this.nextDollar(start) : this.inlineCloser(start + 1);
    if (i === -1 || i - start > MAX_MATH) return null;
    if (display && src[i + 1] !== '$') return null;
    this.#pos = i + open;
    return el(
      'math',
      this.nested(() => new Parser(src.slice(start, i)).mathDocument(this.#depth)),
    );
  }

  // A backslash escapes the character after it. The opening `$` is never escaped (a backslash before it
  // makes a command), so whether a later `$` is escaped does not depend on where the formula began, and
  // one finder serves every formula of the text.

  /** The next unescaped `$` from `from`. */
  private nextDollar(from: number): number {
    const src = this.#src;
    return this.finder('$', () => forwardFinder(src.length, (j) => src[j] === '$' && !this.escaped(j)))(from);
  }

  /** The next `$` from `from` that can close `$…$`: unescaped, not after a space, not before a digit. */
  private inlineCloser(from: number): number {
    const src = this.#src;
    const closes = (j: number): boolean =>
      src[j] === '$' && !/\s/.test(src[j - 1] ?? ' ') && !/\d/.test(src[j + 1] ?? '') && !this.escaped(j);
    return this.finder('inline $', () => forwardFinder(src.length, closes))(from);
  }

  /** Whether the character at `i` follows an odd run of backslashes. */
  private escaped(i: number): boolean {
    let start = i;
    while (start > 0 && this.#src[start - 1] === '\\') start -= 1;
    visit(i - start);
    return (i - start) % 2 === 1;
  }

  /** `\(…\)` or `\[…\]`. */
  private delimitedMath(): RichElement | null {
    const src = this.#src;
    const kind = src[this.#pos + 1];
    if (kind !== '(' && kind !== '[') return null;
    const close = kind === '(' ? '\\)' : '\\]';
    const start = this.#pos + 2;
    const end = this.finder(close, () => occurrenceFinder(src, close))(start);
    if (end < 0 || end - start > MAX_MATH) return null;
    this.#pos = end + 2;
    return el(
      'math',
      this.nested(() => new Parser(src.slice(start, end)).mathDocument(this.#depth)),
    );
  }

  mathDocument(depth: number): RichNode[] {
    this.#depth = depth;
    return this.mathSeq(false, MATH);
  }

  /** Maths until the end, or until the closing brace of the group being read. */
  mathSeq(inGroup: boolean, mode: Mode): RichNode[] {
    const items: Item[] = [];
    const src = this.#src;
    while (this.#pos < src.length) {
      visit();
      const ch = src[this.#pos] as string;
      if (ch === '}') {
        this.#pos += 1;
        if (inGroup) break;
        continue;
      }
      if (/\s/.test(ch) || ch === '~') {
        this.#pos += 1;
        items.push({ space: true });
        continue;
      }
      if (ch === '{') {
        this.#pos += 1;
        const group = this.nested(() => this.mathSeq(true, mode));
        for (const node of group) items.push(node);
        continue;
      }
      if (ch === '^' || ch === '_') {
        this.#pos += 1;
        const script = this.argument({ ...mode, tight: true });
        // x^\circ is how TeX writes degrees.
        if (ch === '^' && plainText(script) === '∘') items.push('°');
        else items.push(el(ch === '^' ? 'sup' : 'sub', script));
        continue;
      }
      if (ch === '\\') {
        items.push(...this.mathCommand(mode));
        continue;
      }
      if (ch === "'") {
        this.#pos += 1;
        items.push('′');
        continue;
      }
      if ('=<>+'.includes(ch)) {
        this.#pos += 1;
        items.push({ op: ch });
        continue;
      }
      if (ch === '-') {
        this.#pos += 1;
        items.push({ op: '−' });
        continue;
      }
      if (ch === '&') {
        this.#pos += 1;
        items.push({ space: true });
        continue;
      }
      const letters = /^\p{L}+/u.exec(src.slice(this.#pos, this.#pos + 64));
      if (letters) {
        this.#pos += letters[0].length;
        items.push(this.letters(letters[0], mode));
        continue;
      }
      let end = this.#pos + 1;
      while (end < src.length && !/[\s~{}^_\\'=<>+\-&\p{L}]/u.test(src[end] as string)) end += 1;
      visit(end - this.#pos);
      items.push(src.slice(this.#pos, end));
      this.#pos = end;
    }
    return finishMath(items, mode.tight);
  }

  /** A lone letter is a variable, set in italics; a word ("SFT", "loss") stays upright. */
  private letters(word: string, mode: Mode): RichNode {
    if (mode.upright || [...word].length !== 1) return word;
    if (/[A-Za-z]/.test(word) || /\p{Ll}/u.test(word)) return el('i', [word]);
    return word;
  }

  /** One argument: a braced group, a command or a single character. */
  argument(mode: Mode): RichNode[] {
    const src = this.#src;
    while (this.#pos < src.length && /\s/.test(src[this.#pos] as string)) this.#pos += 1;
    const ch = src[this.#pos];
    if (ch === undefined) return [];
    if (ch === '{') {
      this.#pos += 1;
      return this.nested(() => (mode.math ? this.mathSeq(true, mode) : this.textSeq(true)));
    }
    if (ch === '\\') {
      return mode.math ? finishMath(this.mathCommand(mode), mode.tight) : this.command(mode);
    }
    const char = String.fromCodePoint(src.codePointAt(this.#pos) ?? 32);
    this.#pos += char.length;
    if (mode.math && char === '-') return ['−'];
    return mode.math ? [this.letters(char, mode)] : [char];
  }

  /** The raw text of a braced argument (a URL, a colour): not interpreted. */
  rawArgument(): string {
    const src = this.#src;
    while (this.#pos < src.length && /\s/.test(src[this.#pos] as string)) this.#pos += 1;
    if (src[this.#pos] !== '{') return '';
    let depth = 0;
    const start = this.#pos + 1;
    for (let i = this.#pos; i < src.length; i += 1) {
      if (src[i] === '\\') i += 1;
      else if (src[i] === '{') depth += 1;
      else if (src[i] === '}') {
        depth -= 1;
        if (depth === 0) {
          this.#pos = i + 1;
          return src.slice(start, i);
        }
      }
    }
    this.#pos = src.length;
    return src.slice(start);
  }

  /** Skips an optional `[…]` argument (\sqrt[3], \cite[p.~2]). */
  optionalArgument(): string | null {
    const src = this.#src;
    if (src[this.#pos] !== '[') return null;
    const end = this.finder(']', () => occurrenceFinder(src, ']'))(this.#pos);
    if (end < 0) return null;
    const value = src.slice(this.#pos + 1, end);
    this.#pos = end + 1;
    return value;
  }

  skip(char: string): void {
    if (this.#src[this.#pos] === char) this.#pos += 1;
  }

  private nested(read: () => RichNode[]): RichNode[] {
    if (this.#depth >= MAX_DEPTH) {
      const rest = this.#src.slice(this.#pos);
      this.#pos = this.#src.length;
      return [rest];
    }
    this.#depth += 1;
    try {
      return read();
    } finally {
      this.#depth -= 1;
    }
  }

  /** Reads `\name` or `\%` at the cursor. */
  private commandName(): string {
    const src = this.#src;
    const letters = /^[A-Za-z]+/.exec(src.slice(this.#pos + 1, this.#pos + 40));
    if (letters) {
      this.#pos += 1 + letters[0].length;
      // The starred forms (\operatorname*, \section*) print the same.
      if (src[this.#pos] === '*') this.#pos += 1;
      return letters[0];
    }
    const char = src[this.#pos + 1] ?? '';
    this.#pos += 1 + char.length;
    return char;
  }

  /** A command in text mode. */
  command(mode: Mode): RichNode[] {
    const name = this.commandName();
    if (name === '') return ['\\'];
    const known = commonCommand(name, mode, this);
    if (known) return known;
    const symbol = own(OPERATORS, name) ?? own(GREEK_LOWER, name);
    if (symbol !== undefined) return [symbol];
    if (FUNCTIONS.has(name)) return [name];
    // An unknown macro (a paper's own \method): its name is the best guess at what it prints.
    return [name];
  }

  /** A command in maths, as items whose spacing finishMath decides. */
  mathCommand(mode: Mode): Item[] {
    const name = this.commandName();
    if (name === '') return ['\\'];
    const op = own(OPERATORS, name);
    if (op !== undefined) return [{ op }];
    if (FUNCTIONS.has(name)) return [{ fn: name }];
    if (name === 'operatorname') return [{ fn: plainText(this.argument(UPRIGHT_MATH)) }];
    const letter = own(GREEK_LOWER, name);
    if (letter !== undefined) return [mode.upright ? letter : el('i', [letter])];
    const known = commonCommand(name, mode, this);
    if (known) return known;
    return [el('upright', [name])];
  }
}

/**
 * A title or abstract as rich text. Past `limit` characters the rest is left out, and the text ends by
 * saying how much.
 */
export function richText(source: string, limit: number = RENDER_LIMIT): RichNode[] {
  const capped = capSource(source, limit);
  const nodes = new Parser(capped.text).document();
  if (capped.omitted !== null) pushText(nodes, ` ${capped.omitted}`);
  return nodes;
}
