/** The LaTeX commands that mean the same in text and in maths: fonts, accents, roots, fractions, escapes. */
import { own } from './own-key.ts';
import {
  ACCENTS,
  DROP_ARGUMENT,
  ESCAPES,
  IGNORED,
  MATH_ACCENTS,
  SPACES,
  SYMBOLS,
  isAlphabet,
  toAlphabet,
} from './latex-symbols.ts';
import { el, plainText, type RichNode } from './rich-text.ts';

export interface Mode {
  math: boolean;
  /** Inside \mathrm, \text …: letters stay upright. */
  upright: boolean;
  /** In a sub- or superscript, where TeX sets operators without spaces ("σ_{k+1}"). */
  tight?: boolean;
}

export const TEXT: Mode = { math: false, upright: true };
export const MATH: Mode = { math: true, upright: false };
export const UPRIGHT_MATH: Mode = { math: true, upright: true };

/** What a command needs from the parser to read its arguments. */
export interface ArgumentReader {
  /** One argument: a braced group, a command or a single character. */
  argument(mode: Mode): RichNode[];
  /** The raw text of a braced argument (a URL, a colour). */
  rawArgument(): string;
  /** An optional `[…]` argument, or null. */
  optionalArgument(): string | null;
  /** Skips `char` when it comes next. */
  skip(char: string): void;
}

/** Commands shared by text and maths. Null when the command is not one of them. */
export function commonCommand(name: string, mode: Mode, read: ArgumentReader): RichNode[] | null {
  const escaped = own(ESCAPES, name) ?? own(SPACES, name);
  if (escaped !== undefined) return [escaped];
  if (IGNORED.has(name)) {
    // \left. and \right. stand for no delimiter at all.
    if (name === 'left' || name === 'right') read.skip('.');
    return [];
  }
  if (DROP_ARGUMENT.has(name)) {
    read.optionalArgument();
    read.rawArgument();
    return [];
  }
  const text = TEXT;
  switch (name) {
    case 'textbf':
    case 'mathbf':
    case 'boldsymbol':
    case 'bm':
    case 'pmb':
      return [el('b', read.argument(name === 'textbf' ? text : name === 'mathbf' ? UPRIGHT_MATH : mode))];
    case 'textit':
    case 'emph':
    case 'textsl':
      return [el('i', read.argument(text))];
    case 'mathit':
      return [el('i', read.argument(UPRIGHT_MATH))];
    case 'texttt':
    case 'mathtt':
      return [el('code', read.argument(name === 'texttt' ? text : UPRIGHT_MATH))];
    case 'textsc':
      return [el('smallcaps', read.argument(text))];
    case 'underline':
    case 'uline':
      return [el('u', read.argument(mode))];
    case 'textsuperscript':
      return [el('sup', read.argument(text))];
    case 'textsubscript':
      return [el('sub', read.argument(text))];
    case 'text':
    case 'textrm':
    case 'textsf':
    case 'textnormal':
    case 'textup':
    case 'mbox':
    case 'hbox':
      return [el('upright', read.argument(text))];
    case 'mathrm':
    case 'mathsf':
    case 'operatorname':
    case 'mathnormal':
      return [el('upright', read.argument(UPRIGHT_MATH))];
    case 'href': {
      read.rawArgument();
      return read.argument(text);
    }
    case 'url':
      return [el('code', [read.rawArgument()])];
    case 'textcolor':
    case 'colorbox': {
      read.rawArgument();
      return read.argument(mode);
    }
    case 'footnote':
      return [' (', ...read.argument(text), ')'];
    case 'sqrt': {
      const index = read.optionalArgument();
      const body = read.argument(MATH);
      const simple = /^[\p{L}\p{N}.]*$/u.test(plainText(body));
      return [...(index ? [el('sup', [index])] : []), '√', ...(simple ? body : ['(', ...body, ')'])];
    }
    case 'frac':
    case 'tfrac':
    case 'dfrac':
    case 'cfrac': {
      const top = read.argument(MATH);
      const bottom = read.argument(MATH);
      const wrap = (part: RichNode[]): RichNode[] =>
        /^[\p{L}\p{N}.′]*$/u.test(plainText(part)) ? part : ['(', ...part, ')'];
      return [...wrap(top), '/', ...wrap(bottom)];
    }
    case 'binom':
    case 'tbinom':
    case 'dbinom': {
      const n = read.argument(MATH);
      const k = read.argument(MATH);
      return ['C(', ...n, ', ', ...k, ')'];
    }
    case 'overline':
    case 'widebar':
      return [accent(read, 'overline', mode)];
    case 'not':
      return [...read.argument(mode), '\u0338'];
    default:
      break;
  }
  if (isAlphabet(name)) return [toAlphabet(name, plainText(read.argument(UPRIGHT_MATH)))];
  const mathAccent = own(MATH_ACCENTS, name);
  if (mathAccent !== undefined) return [accent(read, mathAccent, mode)];
  const textAccent = own(ACCENTS, name);
  if (textAccent !== undefined) {
    const base = plainText(read.argument(text));
    return [(base.slice(0, 1) + textAccent + base.slice(1)).normalize('NFC')];
  }
  const symbol = own(SYMBOLS, name);
  if (symbol !== undefined) return [symbol];
  return null;
}

/** A mark over a single letter ("x̂"), or over the last letter of a longer argument. */
function accent(read: ArgumentReader, mark: string, mode: Mode): RichNode {
  const body = read.argument(mode.math ? mode : MATH);
  const text = plainText(body);
  if (mark === 'overline' || mark === '\u0304') {
    return [...text].length === 1 ? el('i', [`${text}\u0305`]) : el('overline', body);
  }
  const italic = [...text].length === 1 && !mode.upright && /\p{L}/u.test(text);
  const marked = `${text}${mark}`.normalize('NFC');
  return italic ? el('i', [marked]) : marked;
}
