/**
 * Moving through a list with the keyboard, read from the page's markup so that every list (a topic's papers,
 * the directory's rows, the reading list, the taxonomy tree) joins by marking itself up, without code of its
 * own:
 *
 *   data-nav-list   the list (one per page is usual; the one holding the focus wins, else the first shown)
 *   data-nav-item   one entry of it
 *   data-nav-open   the entry's main link: it takes the focus, so Enter opens it natively
 *   data-nav-save   the entry's save button, pressed by S
 *   data-nav-done   an entry already dealt with (a triaged inbox row): it stays in place, J/K pass over it,
 *                   and acting on the entry before it moves on to the next one not done
 *   data-nav-expand the entry's button that shows it whole, pressed by Space
 *
 * The current entry is the one holding the focus: no second notion of "selected" to keep in step.
 */

export const LIST = '[data-nav-list]';
export const ITEM = '[data-nav-item]';
export const OPEN = '[data-nav-open]';
export const SAVE = '[data-nav-save]';
export const DONE = 'data-nav-done';
export const EXPAND = '[data-nav-expand]';

/**
 * Shown: not display:none and not inside a closed <details>. (Chromium hides a closed <details>'s content
 * with content-visibility, which leaves it boxes: only checkVisibility sees that it is skipped.)
 */
export function shown(el: Element): boolean {
  return typeof el.checkVisibility === 'function' ? el.checkVisibility() : el.getClientRects().length > 0;
}

/** The entries of `list` that can take the focus, in document order (done ones are passed over). */
export function itemsOf(list: Element): HTMLElement[] {
  return [...list.querySelectorAll<HTMLElement>(ITEM)].filter(
    (item) => !isDone(item) && shown(item) && openOf(item) !== null,
  );
}

export function isDone(item: Element): boolean {
  return item.hasAttribute(DONE);
}

export function openOf(item: Element): HTMLElement | null {
  return item.querySelector<HTMLElement>(OPEN);
}

/** The entry holding the focus, if the focus is in a list. */
export function currentItem(doc: Document = document): HTMLElement | null {
  const active = doc.activeElement;
  const item = active?.closest<HTMLElement>(ITEM);
  return item?.closest(LIST) ? item : null;
}

/** The list to move in: the one holding the focus, else the first one shown on the page. */
export function activeList(doc: Document = document): Element | null {
  const holding = doc.activeElement?.closest(LIST);
  if (holding) return holding;
  return [...doc.querySelectorAll(LIST)].find(shown) ?? null;
}

/** About the sticky header's height: an entry ending above this line has been scrolled past. */
const SCROLLED_PAST = 80;

/**
 * Where to start when the focus is not in the list yet: the first entry not scrolled past, so pressing J
 * halfway down a long list carries on from what the reader is looking at rather than jumping to the top.
 */
function firstInView(items: readonly HTMLElement[]): HTMLElement | undefined {
  return items.find((item) => item.getBoundingClientRect().bottom > SCROLLED_PAST) ?? items[items.length - 1];
}

/** Focuses `item`'s main link and scrolls the entry into view (minding the sticky header: scroll-margin). */
export function focusItem(item: HTMLElement): void {
  const target = openOf(item);
  if (!target) return;
  target.focus({ preventScroll: true });
  const still = matchMedia('(prefers-reduced-motion: reduce)').matches;
  item.scrollIntoView({ block: 'nearest', behavior: still ? 'auto' : 'smooth' });
}

/**
 * Moves the focus `step` entries along the page's list (1 for J, -1 for K), stopping at both ends.
 * Returns false when the page has no list to move in.
 */
export function moveFocus(step: 1 | -1, doc: Document = document): boolean {
  const list = activeList(doc);
  if (!list) return false;
  const items = itemsOf(list);
  if (items.length === 0) return false;
  const current = currentItem(doc);
  const index = current ? items.indexOf(current) : -1;
  const next =
    index === -1 ? firstInView(items) : items[Math.min(items.length - 1, Math.max(0, index + step))];
  if (next) focusItem(next);
  return true;
}

/**
 * After `item` was dealt with: focuses the next entry not done, else the first one not done above it (so a
 * paper passed over with J comes round again rather than being left behind), else leaves the focus where
 * it is. Computed from `item`, not from the focus, so calling it twice for one action moves once.
 */
export function focusNextOpen(
  item: HTMLElement,
  list: Element | null = item.closest(LIST),
): HTMLElement | null {
  if (!list) return null;
  const open = itemsOf(list);
  const next =
    open.find((other) => item.compareDocumentPosition(other) & Node.DOCUMENT_POSITION_FOLLOWING) ?? open[0];
  if (next) focusItem(next);
  return next ?? null;
}

/** The save button S presses outside lists: the one of a page about a single paper, if there is exactly one. */
export function pageSave(doc: Document = document): HTMLElement | null {
  const outside = [...doc.querySelectorAll<HTMLElement>(SAVE)].filter((b) => !b.closest(LIST) && shown(b));
  return outside.length === 1 ? (outside[0] ?? null) : null;
}

/** The text of an entry's main link, for announcements ("Saved: …"). */
export function itemTitle(item: Element): string {
  return (openOf(item)?.textContent ?? '').replace(/\s+/g, ' ').trim();
}
