/**
 * Keeping a plain <textarea> and a shared Y.Text in step: each input becomes the one minimal edit that
 * turns the old text into the new (so concurrent typing elsewhere merges instead of being overwritten),
 * and each remote change moves the caret with the text around it.
 */

export interface TextEdit {
  index: number;
  remove: number;
  insert: string;
}

/** One op of a Y.Text event's delta (Quill's format). */
export interface DeltaOp {
  retain?: number;
  insert?: string | object;
  delete?: number;
}

const isHigh = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/**
 * The single edit turning `before` into `after`, or null when they are equal. `cursor` (the caret after
 * the input) places the edit where it was typed when the text repeats: "aa" → "aaa" typed between the
 * two a's is an insert at 1, not at 2. Edits never split a surrogate pair (Yjs would store U+FFFD).
 */
export function diffText(before: string, after: string, cursor?: number): TextEdit | null {
  if (before === after) return null;
  const min = Math.min(before.length, after.length);
  let prefix = 0;
  while (prefix < min && before[prefix] === after[prefix]) prefix++;
  let suffix = 0;
  while (suffix < min - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) {
    suffix++;
  }
  if (cursor !== undefined && cursor >= 0 && cursor <= after.length) {
    const tail = after.length - cursor;
    // The text after the caret was not touched: it ends the old text too, and the edit ends at the caret.
    if (tail <= before.length && before.endsWith(after.slice(cursor))) {
      suffix = tail;
      prefix = Math.min(prefix, cursor, before.length - tail);
    }
  }
  if (prefix > 0 && isHigh(before.charCodeAt(prefix - 1))) prefix--;
  if (suffix > 0 && isLow(before.charCodeAt(before.length - suffix))) suffix--;
  return {
    index: prefix,
    remove: before.length - suffix - prefix,
    insert: after.slice(prefix, after.length - suffix),
  };
}

/**
 * Where a caret at `index` belongs after a change described by `delta`. Text inserted exactly at the
 * caret goes after it (the caret stays with the text to its left), so two people typing at the same spot
 * each keep writing their own words instead of interleaving.
 */
export function transformIndex(index: number, delta: readonly DeltaOp[]): number {
  let old = 0;
  let moved = index;
  for (const op of delta) {
    if (old >= index && op.insert === undefined) break;
    if (op.retain !== undefined) {
      old += op.retain;
    } else if (op.insert !== undefined) {
      if (old < index) moved += typeof op.insert === 'string' ? op.insert.length : 1;
    } else if (op.delete !== undefined) {
      moved -= Math.max(0, Math.min(op.delete, index - old));
      old += op.delete;
    }
  }
  return moved;
}
