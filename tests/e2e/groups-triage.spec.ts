/**
 * Issue 12's inbox: two members triage one followed topic's new papers by keyboard at the same time. One
 * rule (S and X act and go on to the next untriaged paper; J/K only move), so no paper is skipped
 * silently (one passed over with J comes round again) and none is triaged twice (a row the other member
 * triages under the cursor hands the focus on; a held key acts once). Undo restores one. Then the exports
 * carry what issue 12 lists.
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type Download, type Locator, type Page } from '@playwright/test';
import { createGroup, GROUP, joinGroup, member, openTab, shot } from './support/group-ui.ts';
import { pickInboxTopic } from './support/inbox-topic.ts';

const rows = (page: Page): Locator => page.getByTestId('inbox-item');
const row = (page: Page, id: string): Locator =>
  page.locator(`[data-testid="inbox-item"][data-paper-id="${id}"]`);
/** The inbox row holding the keyboard focus. */
const focusedRow = (page: Page): Locator =>
  page.locator('[data-testid="inbox-item"]:has([data-nav-open]:focus)');

/** An attribute of every inbox row, in the page's order. */
async function attributes(page: Page, name: string): Promise<(string | null)[]> {
  const values: (string | null)[] = [];
  for (const item of await rows(page).all()) values.push(await item.getAttribute(name));
  return values;
}

async function expectFocusOn(page: Page, id: string): Promise<void> {
  await expect(focusedRow(page)).toHaveAttribute('data-paper-id', id);
}

async function expectState(page: Page, id: string, state: string, by?: string): Promise<void> {
  await expect(row(page, id)).toHaveAttribute('data-state', state);
  if (by) await expect(row(page, id).getByTestId('triage-state')).toContainText(`by ${by}`);
}

async function downloaded(page: Page, button: Locator): Promise<{ name: string; text: string }> {
  const [file]: [Download, void] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), text: await readFile(path, 'utf8') };
}

test('two members triage the inbox by keyboard: nothing skipped, nothing twice, undo restores one', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const { topic, ids } = await pickInboxTopic(request);
  const n = ids.length;
  const id = (i: number): string => ids[i] ?? '';
  const a = await member(browser);
  const b = await member(browser);

  // A creates the group, follows the topic for it from the topic's page; B joins.
  const { link, groupId } = await createGroup(a);
  await joinGroup(b, link, 'Ben');
  await a.goto(`/topics/${topic.slug}`);
  await a.getByTestId('follow-button').click();
  await expect(a.getByTestId('follow-button')).toHaveAttribute('aria-pressed', 'true');
  await expect(a.getByTestId('follow-button')).toContainText(`Followed by ${GROUP}`);
  await a.goto(`/groups/${groupId}`);
  for (const page of [a, b]) {
    await openTab(page, 'Inbox');
    await expect(rows(page)).toHaveCount(n);
    await expect(page.getByTestId('inbox-count')).toContainText(`${n} to triage`);
    // The window is said, with its dates: these members never marked the inbox looked.
    await expect(page.getByTestId('inbox-window')).toContainText('the last 7 listing days with papers here');
  }
  expect(await attributes(a, 'data-paper-id')).toEqual(ids);

  // Rows show the first lines of the abstract and at most three topic chips.
  const first = row(a, id(0));
  await expect(first.getByTestId('row-abstract')).toBeVisible();
  const chips = await first.getByTestId('topic-chip').count();
  expect(chips).toBeGreaterThan(0);
  expect(chips).toBeLessThanOrEqual(3);

  // A: J to the first paper, Space shows it whole, S saves it and goes on to the next: no J needed.
  await a.keyboard.press('j');
  await expectFocusOn(a, id(0));
  const expand = first.getByTestId('row-expand');
  if ((await expand.count()) > 0) {
    await a.keyboard.press(' ');
    await expect(expand).toHaveAttribute('aria-expanded', 'true');
  }
  await a.keyboard.press('s');
  await expectState(a, id(0), 'saved', 'you');
  await expectFocusOn(a, id(1));
  // The old habit, S then J, passes over paper 1: it stays in the inbox, untriaged, and comes round again.
  await a.keyboard.press('j');
  await expectFocusOn(a, id(2));
  await expectState(a, id(1), 'open');

  // B moves to paper 2 (J passes over A's triaged row) and dismisses it while A's cursor is on it:
  // A's row stays in place, marked, and A's focus goes on to paper 3, so A's next S cannot land twice.
  await expectState(b, id(0), 'saved', 'Ada');
  await b.keyboard.press('j');
  await expectFocusOn(b, id(1));
  await b.keyboard.press('j');
  await expectFocusOn(b, id(2));
  await b.keyboard.press('x');
  await expectState(b, id(2), 'dismissed', 'you');
  await expectState(a, id(2), 'dismissed', 'Ben');
  await expectFocusOn(a, id(3));
  await expect(a.getByTestId('announcer')).toContainText('Ben dismissed');
  await a.keyboard.press('s');
  await expectState(a, id(3), 'saved', 'you');
  await expectState(a, id(2), 'dismissed', 'Ben');
  // B's cursor was on paper 3, which A saved: B's goes on too.
  await expectFocusOn(b, id(4));

  // A held-down X (key repeat) dismisses one paper, not the next ones.
  await expectFocusOn(a, id(4));
  await a.keyboard.down('x');
  await a.keyboard.down('x');
  await a.keyboard.down('x');
  await a.keyboard.up('x');
  await expectState(a, id(4), 'dismissed', 'you');
  await expectState(a, id(5), 'open');

  // A dismisses the rest from the bottom up to the end; past the last, the focus comes back to paper 1.
  for (let i = 5; i < n; i++) {
    await expectFocusOn(a, id(i));
    await a.keyboard.press('x');
    await expectState(a, id(i), 'dismissed', 'you');
  }
  await expectFocusOn(a, id(1));
  await expect(a.getByTestId('inbox-count')).toContainText('1 to triage');
  await a.keyboard.press('x');
  await expectState(a, id(1), 'dismissed', 'you');
  await expect(a.getByTestId('inbox-count')).toContainText('0 to triage');

  // Both see every paper triaged exactly once, by whom.
  const expected = ids.map((_, i) => (i === 0 || i === 3 ? 'saved' : 'dismissed'));
  for (const page of [a, b]) {
    await expect(page.getByTestId('inbox-count')).toContainText('0 to triage');
    const states = await attributes(page, 'data-state');
    expect(states).toEqual(expected);
  }
  // Every decision is A's but paper 2, B's.
  const by = await attributes(b, 'data-by');
  expect(by.flatMap((m, i) => (m === by[2] ? [i] : []))).toEqual([2]);
  await a.screenshot({ path: shot('group-inbox-triaged.png'), fullPage: true });

  // Z undoes A's last decision: paper 1 is back, for both, and has the focus.
  await a.keyboard.press('z');
  await expectState(a, id(1), 'open');
  await expectState(b, id(1), 'open');
  await expectFocusOn(a, id(1));
  await expect(a.getByTestId('inbox-count')).toContainText('1 to triage');
  // Saved, then undone with the button: the save leaves the queue again.
  await a.keyboard.press('s');
  await expectState(b, id(1), 'saved', 'Ada');
  await expect(a.getByTestId('undo-triage')).toContainText('Undo save of');
  await a.getByTestId('undo-triage').click();
  await expectState(b, id(1), 'open');
  await openTab(b, 'Queue');
  await expect(b.getByTestId('queue-item')).toHaveCount(2);
  await expect(b.locator(`[data-testid="queue-item"][data-paper-id="${id(1)}"]`)).toHaveCount(0);
  await openTab(b, 'Inbox');
  await a.keyboard.press('x');
  await expect(a.getByTestId('inbox-count')).toContainText('0 to triage');

  // The shortcuts dialog says the rule and Z.
  await a.keyboard.press('?');
  const dialog = a.getByTestId('shortcuts-dialog');
  await expect(dialog).toContainText('Undo your last save or dismissal');
  await expect(dialog).toContainText('no J needed');
  await a.keyboard.press('Escape');

  // Export: paper 0 is discussed; BibTeX of the whole queue, then only "discussed", CSL-JSON and Markdown.
  await openTab(a, 'Queue');
  await a
    .locator(`[data-testid="queue-item"][data-paper-id="${id(0)}"]`)
    .getByTestId('queue-status')
    .selectOption('discussed');
  await openTab(a, 'Export');
  const all = await downloaded(a, a.getByTestId('export-bibtex'));
  expect(all.text.match(/^@misc\{/gm)).toHaveLength(2);
  for (const paperId of [id(0), id(3)]) {
    expect(all.text).toContain(`doi = {10.48550/arXiv.${paperId}}`);
    expect(all.text).toContain(`eprint = {${paperId}}`);
  }
  expect(all.text).toMatch(/^ {2}month = [a-z]{3},$/m);
  // (The corpus's listings carry no version numbers, so no version field here: the unit tests have one.)
  expect(all.text).toMatch(/^ {2}abstract = \{.{40,}\},$/m);
  expect(all.text).toContain(topic.name.split(' ')[0]);
  expect(all.text).toMatch(/^ {2}keywords = \{.+\}$/m);

  for (const status of ['queued', 'reading', 'archived']) {
    await a.getByTestId(`export-status-${status}`).uncheck();
  }
  await expect(a.getByTestId('export-selection')).toContainText('1 paper will be exported');
  const discussed = await downloaded(a, a.getByTestId('export-bibtex'));
  expect(discussed.name).toMatch(/-discussed\.bib$/);
  expect(discussed.text.match(/^@misc\{/gm)).toHaveLength(1);
  expect(discussed.text).toContain(`eprint = {${id(0)}}`);

  const csl = await downloaded(a, a.getByTestId('export-csl'));
  const items = JSON.parse(csl.text) as Record<string, unknown>[];
  expect(items).toHaveLength(1);
  expect(items[0]).toMatchObject({
    type: 'article',
    publisher: 'arXiv',
    number: `arXiv:${id(0)}`,
    DOI: `10.48550/arXiv.${id(0)}`,
    URL: `https://arxiv.org/abs/${id(0)}`,
  });
  expect(String(items[0]?.abstract).length).toBeGreaterThan(40);
  expect(String(items[0]?.keyword)).not.toBe('');
  expect(items[0]?.author).toEqual(
    expect.arrayContaining([expect.objectContaining({ family: expect.any(String) })]),
  );

  const md = await downloaded(a, a.getByTestId('export-markdown'));
  expect(md.text).toContain('### Abstract');
  expect(md.text).toContain(`[${id(0)}`);
  expect(md.text).not.toContain(`[${id(3)}`);
  expect(md.text).toContain('- **Status:** discussed');

  await a.context().close();
  await b.context().close();
});
