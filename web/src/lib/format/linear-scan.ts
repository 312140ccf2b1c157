/**
 * Look-ahead for the renderers that stays linear over a whole parse. A parser that asks "where is the next
 * closing bracket?" at every opening one rescans the rest of the input each time: `'['` × 100k took 11 s.
 * A finder remembers its last answer, so a parser moving left to right never scans a character twice.
 *
 * The renderers also count the characters they look at, so tests pin linearity by counting work instead
 * of reading a clock.
 */

let visits = 0;

/** Records that a renderer looked at `n` more characters. */
export function visit(n = 1): void {
  visits += n;
}

/** How many characters `render` looked at. */
export function countVisits(render: () => unknown): number {
  const before = visits;
  render();
  return visits - before;
}

/** The first index ≥ `from` where the test holds, or -1 when none does. */
export type Finder = (from: number) => number;

/**
 * A finder over indexes below `length`. An answer is reused for any later `from` up to it (no index
 * between passed the test), so queries with non-decreasing `from` cost O(length) in all; others are
 * still answered correctly, by a fresh scan.
 */
export function forwardFinder(length: number, test: (i: number) => boolean): Finder {
  let scannedFrom = Infinity;
  let found = -1;
  return (from) => {
    if (from >= scannedFrom && (found === -1 || found >= from)) return found;
    let i = Math.max(from, 0);
    while (i < length && !test(i)) i += 1;
    visit(i - from + 1);
    scannedFrom = from;
    found = i < length ? i : -1;
    return found;
  };
}

/** A finder of the next occurrence of `needle`, as `indexOf` would find it. */
export function occurrenceFinder(src: string, needle: string): Finder {
  return forwardFinder(src.length, (i) => src.startsWith(needle, i));
}
