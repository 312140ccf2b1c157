/**
 * Steps through the group UI shared by the group specs: members as browser contexts of their own,
 * creating and joining a group, the sync badge and the notes editor. `origin` is '' for the shared
 * server of playwright.config.ts, or a spec's own server's URL.
 */
import { resolve } from 'node:path';
import { expect, type Browser, type Locator, type Page } from '@playwright/test';
import { repoRoot } from '../../src/paths.ts';

export const GROUP = 'Journal Club';

export const shot = (name: string): string => resolve(repoRoot, 'test-results', name);

/** A member: a context of their own, so IndexedDB, localStorage and the socket are theirs. */
export async function member(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  return context.newPage();
}

/** The group's own sync badge (the header's switcher shows one too). */
export function syncState(page: Page): Locator {
  return page.getByRole('main').getByTestId('sync-state');
}

export async function expectSynced(page: Page): Promise<void> {
  await expect(syncState(page)).toHaveAttribute('data-state', 'synced');
  await expect(syncState(page)).toHaveAttribute('data-unsynced', '0');
}

export interface CreatedGroup {
  groupId: string;
  /** The read-write and read-only invite links, as the page shows them. */
  link: string;
  readOnlyLink: string;
}

export async function createGroup(page: Page, origin = '', name = 'Ada'): Promise<CreatedGroup> {
  await page.goto(`${origin}/groups`);
  await page.getByLabel('Group name').fill(GROUP);
  await page.getByLabel('Your name in the group').fill(name);
  await page.getByRole('button', { name: 'Create group' }).click();
  const created = page.getByTestId('created-group');
  await expect(created.getByTestId('invite-read-only')).toHaveValue(/\/join#[\w-]+\.[\w-]+$/);
  const link = await created.getByTestId('invite-read-write').inputValue();
  const readOnlyLink = await created.getByTestId('invite-read-only').inputValue();
  const groupId = /\/join#([\w-]+)\./.exec(link)?.[1] ?? '';
  expect(groupId).not.toBe('');
  return { groupId, link, readOnlyLink };
}

/** Opens an invite link and joins; the group page then opens and syncs. */
export async function joinGroup(page: Page, link: string, name: string): Promise<void> {
  await page.goto(link);
  await page.getByLabel('Your name in the group').fill(name);
  await page.getByRole('button', { name: 'Join group' }).click();
  await expect(page.getByRole('heading', { name: GROUP, level: 1 })).toBeVisible();
  await expect(syncState(page)).toHaveAttribute('data-state', 'synced');
}

export async function openTab(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name }).click();
  await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
}

/**
 * A paper's notes in the group; any arXiv id has notes, queued or not. The locator is the editor's
 * editable area (CodeMirror's content element): focus, click and pressSequentially type into it.
 */
export async function openNotes(page: Page, origin: string, groupId: string, paperId: string) {
  await page.goto(`${origin}/groups/${groupId}/papers/${paperId}`);
  const editor = noteEditor(page);
  await expect(syncState(page)).toHaveAttribute('data-state', 'synced');
  await expect(editor).toBeVisible();
  return editor;
}

/** The note editor's editable area (it appears once the lazy editor chunk has loaded). */
export function noteEditor(page: Page): Locator {
  return page.getByTestId('note-editor');
}

/**
 * The note's text as the editor shows it: its lines joined by newlines, without the others' caret and
 * name-tag widgets or the placeholder (decorations, not text). The editor lives in a shadow root of its
 * own inside the host (web editor-root.ts).
 */
export async function noteValue(page: Page): Promise<string> {
  await expect(noteEditor(page)).toHaveCount(1);
  // The tests project has no DOM types, so the in-page code is passed as source text.
  return page.evaluate<string>(`[...document.querySelector('[data-testid="note-editor-host"] > div').shadowRoot
      .querySelectorAll('[data-testid="note-editor"] > .cm-line')]
    .map((line) => {
      const copy = line.cloneNode(true);
      for (const widget of copy.querySelectorAll('.cm-ySelectionCaret, .cm-placeholder')) widget.remove();
      return copy.textContent ?? '';
    })
    .join('\\n')`);
}

/** Waits until the note reads `expected` (exactly, or matching a pattern). */
export async function expectNote(page: Page, expected: string | RegExp): Promise<void> {
  const poll = expect.poll(() => noteValue(page), { message: 'the note editor’s text' });
  await (typeof expected === 'string' ? poll.toBe(expected) : poll.toMatch(expected));
}

/** Another member's caret in this page's note editor, by their name tag. */
export function remoteCaret(page: Page, name: string): Locator {
  return noteEditor(page).locator('.cm-ySelectionCaret').filter({ hasText: name });
}

export function queueItem(page: Page, paperId: string): Locator {
  return page.locator(`[data-testid="queue-item"][data-paper-id="${paperId}"]`);
}

export function candidate(page: Page, paperId: string): Locator {
  return page.locator(`[data-testid="candidate"][data-paper-id="${paperId}"]`);
}

/** Resolves once the app's service worker controls the page, so a reload without network still boots. */
export async function controlledByWorker(page: Page): Promise<void> {
  const controlled = `navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller !== null)`;
  await expect.poll(() => page.evaluate<boolean>(controlled), { timeout: 30_000 }).toBe(true);
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
