import { isUtf8 } from 'node:buffer';
import { DEFAULT_MAX_LINE_BYTES, formatBytes } from './read-dump.ts';

/** A line left out while splitting, with the sentence that says why. */
export interface SkippedLine {
  skipped: string;
}

/**
 * A run of consecutive lines; `first` is the 1-based number of `lines[0]` in the file. `ends[i]` is the byte
 * offset in the decompressed text just past `lines[i]` and its newline: where a resumed import would start.
 */
export interface LineRun {
  first: number;
  lines: Array<string | SkippedLine>;
  ends: number[];
}

/** Where splitting begins: at the top of the text, or after the lines an earlier run already stored. */
export interface LinePosition {
  /** Lines already behind; the next line is number `line + 1`. */
  line: number;
  /** Byte offset of the next line in the decompressed text (a UTF-8 byte order mark not counted). */
  offset: number;
}

const START: LinePosition = { line: 0, offset: 0 };

/**
 * Splits decompressed bytes into lines, a run per chunk, in one pass: each byte is searched for a newline
 * once, and only the unfinished line's parts are kept between chunks. A line longer than `maxLineBytes` is
 * dropped as it grows (its bytes are not kept) and handed over as skipped when its newline comes. Lines are
 * decoded whole, so a character split between chunks is never mistaken for invalid UTF-8. Hand-rolled rather
 * than node:readline, which measured about a third slower on the corpus and cannot bound a line.
 * `from` numbers the lines and offsets of a stream that begins part way into a file.
 */
export async function* splitLines(
  chunks: AsyncIterable<Buffer>,
  maxLineBytes = DEFAULT_MAX_LINE_BYTES,
  from: LinePosition = START,
): AsyncGenerator<LineRun> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let overlong = false;
  let next = from.line + 1;
  // Offset of the first byte of the current chunk.
  let base = from.offset;

  const finish = (last: Buffer): string | SkippedLine => {
    const tooLong = overlong || pendingBytes + last.length > maxLineBytes;
    const bytes = tooLong || pending.length === 0 ? last : Buffer.concat([...pending, last]);
    pending = [];
    pendingBytes = 0;
    overlong = false;
    return tooLong ? { skipped: tooLongLine(maxLineBytes) } : decodeLine(bytes);
  };

  for await (const chunk of chunks) {
    const lines: Array<string | SkippedLine> = [];
    const ends: number[] = [];
    let start = 0;
    let newline: number;
    while ((newline = chunk.indexOf(0x0a, start)) !== -1) {
      lines.push(finish(chunk.subarray(start, newline)));
      start = newline + 1;
      ends.push(base + start);
    }
    if (start < chunk.length && !overlong) {
      const part = chunk.subarray(start);
      if (pendingBytes + part.length > maxLineBytes) {
        overlong = true;
        pending = [];
        pendingBytes = 0;
      } else {
        pending.push(part);
        pendingBytes += part.length;
      }
    }
    base += chunk.length;
    if (lines.length > 0) {
      yield { first: next, lines, ends };
      next += lines.length;
    }
  }
  if (pendingBytes > 0 || overlong) yield { first: next, lines: [finish(Buffer.alloc(0))], ends: [base] };
}

function decodeLine(bytes: Buffer): string | SkippedLine {
  const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
  const line = bytes.toString('utf8', 0, end);
  // Decoding turns bad bytes into U+FFFD; only a line that has one can be invalid, so most skip the check.
  if (line.includes('\uFFFD') && !isUtf8(bytes.subarray(0, end))) {
    return {
      skipped:
        'Cannot import this dump line: it is not valid UTF-8 text. Convert the file to UTF-8 (for example `iconv -f latin1 -t utf-8`) and import it again.',
    };
  }
  return line;
}

function tooLongLine(maxLineBytes: number): string {
  return `Cannot import this dump line: it is longer than ${formatBytes(maxLineBytes)}, the longest line an import accepts (QUIRE_IMPORT_MAX_LINE_BYTES); one paper's record is a few KiB, so this is not one paper a line.`;
}
