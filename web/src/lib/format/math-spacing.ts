import { pushNode, pushText, type RichNode } from './rich-text.ts';

/** A maths item whose spacing is decided once its neighbours are known. */
export type Item = RichNode | { op: string } | { fn: string } | { space: true };

const isOp = (item: Item | undefined): item is { op: string } => typeof item === 'object' && 'op' in item;
const isFn = (item: Item | undefined): item is { fn: string } => typeof item === 'object' && 'fn' in item;
const isSpace = (item: Item | undefined): item is { space: true } =>
  typeof item === 'object' && 'space' in item;

function isOpening(item: Item | undefined): boolean {
  return typeof item === 'string' && /[([{⟨|,]$/.test(item);
}

/**
 * Spacing of a maths sequence: an operator between two operands gets a space on each side ("d ≥ 2",
 * "2 × 10³") but not when it stands alone or first ("98×", "−1"); a function name is parted from what it
 * applies to ("log N"); the spaces typed in the source are dropped, as TeX drops them.
 */
export function finishMath(items: Item[], tight = false): RichNode[] {
  const solid = items.filter((item): item is Exclude<Item, { space: true }> => !isSpace(item));
  const isScript = (item: Item | undefined): boolean =>
    typeof item === 'object' && 'tag' in item && (item.tag === 'sub' || item.tag === 'sup');
  /** Whether a function name (with its scripts) is followed by something it applies to: "max_x f". */
  const applies = (after: Item | undefined): boolean =>
    after !== undefined &&
    !isOp(after) &&
    !isSpace(after) &&
    !(typeof after === 'string' && /^[()[\]{}|,.;!']/.test(after));
  const out: RichNode[] = [];
  let fnOpen = false;
  solid.forEach((item, i) => {
    const before = solid[i - 1];
    const after = solid[i + 1];
    if (isOp(item)) {
      const between =
        !tight && before !== undefined && after !== undefined && !isOp(before) && !isOpening(before);
      pushText(out, between ? ` ${item.op} ` : item.op);
    } else if (isFn(item)) {
      const operand = before !== undefined && !isOp(before) && !isOpening(before) && !isFn(before);
      pushText(out, operand ? ` ${item.fn}` : item.fn);
      fnOpen = isScript(after);
      if (!fnOpen && applies(after)) pushText(out, ' ');
    } else if (typeof item === 'string' && item.endsWith(',') && after !== undefined) {
      // TeX sets a thin space after a comma in maths ("L₀, L₁"), though not inside a number ("1,000").
      const inNumber = /\d,$/.test(item) && typeof after === 'string' && /^\d/.test(after);
      pushText(out, inNumber ? item : `${item}\u2009`);
    } else {
      pushNode(out, item);
      if (fnOpen && !isScript(after)) {
        fnOpen = false;
        if (applies(after)) pushText(out, ' ');
      }
    }
  });
  return out;
}
