import { tick } from 'svelte';
import {
  currentItem,
  EXPAND,
  focusItem,
  focusNextOpen,
  isDone,
  itemsOf,
  itemTitle,
  LIST,
  moveFocus,
  pageSave,
  SAVE,
  shown,
} from './list-navigation.ts';

/** The page's search or filter box, which `/` focuses: mark it `data-shortcut-search`. */
export const SEARCH_BOX = '[data-shortcut-search]';
/** An entry's dismiss button, pressed by X (a group's inbox). */
export const DISMISS = '[data-nav-dismiss]';
/** The page's undo button, pressed by Z (a group's inbox: undo your last triage). */
export const UNDO = '[data-shortcut-undo]';

export interface Shortcut {
  keys: readonly string[];
  /** One word, for the short hints ("J/K move"). */
  verb: string;
  description: string;
}

/** Every shortcut of the app, in the order the dialog and the hints show them. */
export const SHORTCUTS: readonly Shortcut[] = [
  {
    keys: ['J', 'K'],
    verb: 'move',
    description: 'Next or previous paper (or topic) in the list; they only move, never act',
  },
  { keys: ['Enter'], verb: 'open', description: 'Open the focused paper or topic' },
  {
    keys: ['S'],
    verb: 'save',
    description:
      'Save the focused paper to the active group’s queue, or to your reading list (again: remove it). In a group’s inbox it then goes on to the next paper nobody has triaged: no J needed',
  },
  { keys: ['/'], verb: 'search', description: 'Go to the search or filter box' },
  { keys: ['?'], verb: 'shortcuts', description: 'Show these shortcuts' },
  { keys: ['Esc'], verb: 'close', description: 'Close this dialog, or leave the search box' },
  {
    keys: ['X'],
    verb: 'dismiss',
    description: 'Dismiss the focused paper from a group’s inbox and go on to the next untriaged one',
  },
  { keys: ['Z'], verb: 'undo', description: 'Undo your last save or dismissal in a group’s inbox' },
  {
    keys: ['Space'],
    verb: 'expand',
    description: 'Show the focused inbox paper whole (abstract and topics)',
  },
];

/** "J/K move · Enter open · S save · …" */
export const SHORTCUT_SUMMARY = SHORTCUTS.map((s) => `${s.keys.join('/')} ${s.verb}`).join(' · ');

/** Where letters are text: shortcuts stay out of the way there (all but Esc). */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.closest('input, textarea, select') !== null;
}

/** The text of the element an action button is described by (a save button names its paper this way). */
function describedText(el: Element): string {
  const ids = el.getAttribute('aria-describedby')?.split(/\s+/) ?? [];
  return ids
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The app's keyboard flow, in one place: the layout hands every keydown of the window to `onKeydown`, and
 * the pages only mark up their lists (see list-navigation.ts) and their search box. The shortcuts dialog
 * and the screen-reader announcements read their state from here.
 */
export class Shortcuts {
  /** Whether the shortcuts dialog is open (the dialog keeps this in step when it closes itself). */
  helpOpen = $state(false);
  /** The last action's outcome, for a polite live region ("Saved to your reading list: …"). */
  announcement = $state('');

  openHelp(): void {
    this.helpOpen = true;
  }

  closeHelp(): void {
    this.helpOpen = false;
  }

  /** Bound, so it can be handed to `<svelte:window onkeydown>` as is. */
  onKeydown = (event: KeyboardEvent): void => {
    if (event.defaultPrevented || event.isComposing) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const typing = isTyping(event.target);

    if (event.key === 'Escape') {
      // Leave the box but keep what was typed, so J/K then walk the filtered list. (A search box would
      // otherwise clear itself on Esc.) An open dialog closes itself on Esc.
      if (typing && event.target instanceof HTMLElement && !event.target.closest('dialog')) {
        event.preventDefault();
        event.target.blur();
      }
      return;
    }
    if (typing) return;
    // A modal dialog is up: the page behind it is out of reach; only `?` (to toggle) still works.
    if (document.querySelector('dialog[open]')) {
      if (event.key === '?' && this.helpOpen) {
        event.preventDefault();
        this.closeHelp();
      }
      return;
    }

    switch (event.key) {
      case 'j':
      case 'J':
        if (moveFocus(1)) event.preventDefault();
        return;
      case 'k':
      case 'K':
        if (moveFocus(-1)) event.preventDefault();
        return;
      case 's':
      case 'S':
        if (event.repeat) return;
        if (this.#pressSave()) event.preventDefault();
        return;
      case 'x':
      case 'X':
        if (event.repeat) return;
        if (this.#pressDismiss()) event.preventDefault();
        return;
      case 'z':
      case 'Z':
        if (event.repeat) return;
        if (this.#pressUndo()) event.preventDefault();
        return;
      case ' ':
        // Only on an entry's link, where Space would scroll the page: on a button it presses the button.
        if (this.#pressExpand()) event.preventDefault();
        return;
      case '/':
        if (this.#focusSearch()) event.preventDefault();
        return;
      case '?':
        event.preventDefault();
        this.openHelp();
        return;
      // Enter needs nothing here: J/K put the focus on the entry's link, which Enter follows natively.
    }
  };

  /** Presses the focused entry's save button (or the page's, on a paper's own page); false when none. */
  #pressSave(): boolean {
    const item = currentItem();
    // An entry dealt with already (by this member a moment ago, or by another): nothing to act on twice.
    if (item && isDone(item)) return true;
    const button = item ? item.querySelector<HTMLElement>(SAVE) : pageSave();
    if (!button) return false;
    const list = item?.closest(LIST) ?? null;
    const index = item && list ? itemsOf(list).indexOf(item) : -1;
    const title = describedText(button) || (item ? itemTitle(item) : '');
    button.click();
    void this.#afterSave(button, title, item, list, index);
    return true;
  }

  async #afterSave(
    button: HTMLElement,
    title: string,
    item: HTMLElement | null,
    list: Element | null,
    index: number,
  ): Promise<void> {
    await tick();
    // A group's queue (`data-save-target`) only ever adds; the reading list toggles.
    const target = button.dataset.saveTarget;
    const saved = button.isConnected && button.getAttribute('aria-pressed') === 'true';
    if (target) this.announce(`Saved to ${target}: ${title}`);
    else this.announce(`${saved ? 'Saved to' : 'Removed from'} your reading list: ${title}`);
    this.#keepFocus(item, list, index);
  }

  /** Presses the focused entry's dismiss button; false when it has none. */
  #pressDismiss(): boolean {
    const item = currentItem();
    if (item && isDone(item)) return true;
    const button = item?.querySelector<HTMLElement>(DISMISS);
    const list = item?.closest(LIST);
    if (!item || !button || !list) return false;
    const index = itemsOf(list).indexOf(item);
    const title = itemTitle(item);
    button.click();
    void tick().then(() => {
      this.announce(`Dismissed: ${title}`);
      this.#keepFocus(item, list, index);
    });
    return true;
  }

  #keepFocus(item: HTMLElement | null, list: Element | null, index: number): void {
    if (!item || !list) return;
    // A list that keeps the entry just handled, marked done (the inbox): act and advance.
    if (item.isConnected && isDone(item)) {
      focusNextOpen(item, list);
    } else if (!item.isConnected) {
      // A list that drops it: keep the focus there, on the entry in its place.
      const rest = itemsOf(list);
      const next = rest[Math.min(index, rest.length - 1)];
      if (next) focusItem(next);
    }
  }

  /** Presses the page's undo button when it is shown and on; false when there is none. */
  #pressUndo(): boolean {
    const button = [...document.querySelectorAll<HTMLButtonElement>(UNDO)].find(shown);
    if (!button) return false;
    if (!button.disabled) button.click();
    return true;
  }

  /** Presses the expand button of the entry whose link has the focus; false otherwise. */
  #pressExpand(): boolean {
    const item = currentItem();
    if (!item || !document.activeElement?.matches('[data-nav-open]')) return false;
    const button = item.querySelector<HTMLElement>(EXPAND);
    if (!button) return false;
    button.click();
    return true;
  }

  #focusSearch(): boolean {
    const boxes = [...document.querySelectorAll<HTMLElement>(SEARCH_BOX)];
    const box = boxes.find(shown);
    if (box) {
      box.focus();
      if (box instanceof HTMLInputElement || box instanceof HTMLTextAreaElement) box.select();
      return true;
    }
    // A box folded away (the header's, behind an icon on a phone) opens by the button that controls it,
    // which puts the focus in it; the key is used up here, so it neither types "/" nor acts twice.
    const opener = boxes
      .map((b) =>
        b.id === ''
          ? null
          : document.querySelector<HTMLElement>(
              `[aria-controls="${CSS.escape(b.id)}"][aria-expanded="false"]`,
            ),
      )
      .find((button) => button !== null && shown(button));
    if (!opener) return false;
    opener.click();
    return true;
  }

  /** Says `message` through the live region, even when it is the same as the last one. */
  announce(message: string): void {
    this.announcement = '';
    void tick().then(() => {
      this.announcement = message;
    });
  }
}

export const shortcuts = new Shortcuts();
