import { expect, test, type Page } from '@playwright/test';
import {
  GROUP,
  candidate,
  controlledByWorker,
  createGroup,
  escapeRegExp,
  expectNote,
  expectSynced,
  joinGroup,
  member,
  noteValue,
  openTab,
  queueItem,
  shot,
  syncState,
} from './support/group-ui.ts';

const SLUG = 'rl-for-llm-agents';

/**
 * The badge is offline with `count` things not yet synced, and says what they are in words (`words`,
 * e.g. "1 note and 1 vote"; any when not given).
 */
async function offlineWith(page: Page, count: number | 'some', words?: string): Promise<number> {
  const badge = syncState(page);
  await expect(badge).toHaveAttribute('data-state', 'offline');
  if (count !== 'some') await expect(badge).toHaveAttribute('data-unsynced', String(count));
  const n = Number(await badge.getAttribute('data-unsynced'));
  const said = n === 0 ? 'nothing waiting to sync' : `${words ? escapeRegExp(words) : '.+'} not yet synced`;
  await expect(badge).toHaveText(new RegExp(`offline — ${said}$`));
  return n;
}

async function notesOf(page: Page, paperId: string) {
  await openTab(page, 'Queue');
  await queueItem(page, paperId).getByRole('link', { name: 'Notes' }).click();
  const editor = page.getByTestId('note-editor');
  await expect(editor).toBeEditable();
  await editor.focus();
  await page.keyboard.press('Control+End');
  return editor;
}

test('edits made offline merge with the others’ on reconnect, and the group reloads offline', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const a = await member(browser);
  const b = await member(browser);
  const { groupId, link } = await createGroup(a);
  await joinGroup(b, link, 'Ben');

  // A saves three papers of a topic with S and nominates the first two for this week.
  await a.goto(`/topics/${SLUG}`);
  const cards = a.getByTestId('paper-card');
  await expect(cards.nth(2)).toBeVisible();
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    ids.push((await cards.nth(i).getAttribute('data-paper-id')) ?? '');
    await a.keyboard.press('j');
    await a.keyboard.press('s');
    await expect(cards.nth(i).getByTestId('save-button')).toHaveText(`Saved to ${GROUP}`);
  }
  const [p1 = '', p2 = '', p3 = ''] = ids;
  await a.goto(`/groups/${groupId}`);
  for (const id of [p1, p2]) await queueItem(a, id).getByTestId('nominate-button').click();
  // A starts the notes of the first paper; B sees all of it live.
  const agenda = 'Agenda for Thursday\n';
  let editorA = await notesOf(a, p1);
  await editorA.pressSequentially(agenda);
  await expect(b.getByTestId('queue-item')).toHaveCount(3);
  await expect(b.getByTestId('nominate-button').and(b.locator('[aria-pressed="true"]'))).toHaveCount(2);
  await notesOf(b, p1);
  await expectNote(b, agenda);
  await b.goBack();
  await expectSynced(b);
  // The service worker must control B's page, or a reload without network could not boot the app.
  await controlledByWorker(b);

  // B loses the network: the badge says so at once, with nothing pending yet.
  await b.context().setOffline(true);
  await offlineWith(b, 0);

  // Offline, B starts reading the first paper, votes for the second and writes in the first's notes.
  await queueItem(b, p1).getByTestId('queue-status').selectOption('reading');
  await offlineWith(b, 1, '1 queue item');
  await openTab(b, 'Weekly pick');
  await candidate(b, p2).getByTestId('vote-button').click();
  await expect(candidate(b, p2).getByTestId('approvals')).toHaveText('1 vote');
  await offlineWith(b, 2, '1 queue item and 1 vote');
  const fromB = 'Ben (offline): section 3 first, then the ablations.';
  const editorB = await notesOf(b, p1);
  await editorB.pressSequentially(fromB);
  // Every key press was an update of its own: the badge still counts one note.
  const pending = await offlineWith(b, 3, '1 queue item, 1 vote and 1 note');

  // Meanwhile A, online, marks the second paper discussed, votes for both and writes in the same note.
  await a.goBack();
  await queueItem(a, p2).getByTestId('queue-status').selectOption('discussed');
  await openTab(a, 'Weekly pick');
  for (const id of [p1, p2]) await candidate(a, id).getByTestId('vote-button').click();
  await expect(candidate(a, p1).getByTestId('approvals')).toHaveText('1 vote');
  await expect(candidate(a, p2).getByTestId('approvals')).toHaveText('1 vote');
  // A tie shows as a tie, the paper nominated first ahead on the tie-break.
  await expect(a.getByTestId('pick-tie')).toHaveAttribute('data-paper-ids', `${p1} ${p2}`);
  const fromA = 'Ada (online): bring the reproduction numbers.';
  editorA = await notesOf(a, p1);
  await editorA.pressSequentially(fromA);
  await expectSynced(a);
  // None of it reaches B while B is offline.
  expect(await noteValue(a)).not.toContain(fromB);
  expect(await noteValue(b)).not.toContain(fromA);

  // Still without network, B reloads: the notes and the whole group come back from IndexedDB.
  const reloaded = await b.reload();
  expect(reloaded?.fromServiceWorker()).toBe(true);
  await expectNote(b, agenda + fromB);
  await expect(b.getByTestId('note-paper-title')).not.toHaveText(p1); // the queue's snapshot of the paper
  await offlineWith(b, pending);
  await b.goto(`/groups/${groupId}`);
  await expect(b.getByRole('heading', { name: GROUP, level: 1 })).toBeVisible();
  await expect(b.getByTestId('queue-item')).toHaveCount(3);
  await expect(queueItem(b, p1)).toHaveAttribute('data-status', 'reading');
  await expect(queueItem(b, p2)).toHaveAttribute('data-status', 'queued');
  await expect(queueItem(b, p1)).toContainText('Added by Ada');
  await offlineWith(b, pending);
  await openTab(b, 'Weekly pick');
  await expect(candidate(b, p2).getByTestId('vote-button')).toHaveAttribute('aria-pressed', 'true');
  await b.screenshot({ path: shot('group-offline-reload.png'), fullPage: true });

  // The network returns: B syncs by itself and nothing is pending.
  await b.context().setOffline(false);
  await expectSynced(b);
  await expect(syncState(b)).toHaveText(/synced/);

  // Both show the same merged group: statuses from both, every vote, the same winner, both texts.
  await a.goBack();
  for (const page of [a, b]) {
    await openTab(page, 'Queue');
    await expect(queueItem(page, p1)).toHaveAttribute('data-status', 'reading');
    await expect(queueItem(page, p2)).toHaveAttribute('data-status', 'discussed');
    await expect(queueItem(page, p3)).toHaveAttribute('data-status', 'queued');
    await openTab(page, 'Weekly pick');
    await expect(candidate(page, p2).getByTestId('approvals')).toHaveText('2 votes');
    await expect(candidate(page, p1).getByTestId('approvals')).toHaveText('1 vote');
    await expect(page.getByTestId('pick-winner')).toHaveAttribute('data-paper-id', p2);
  }
  await b.screenshot({ path: shot('group-offline-merged.png'), fullPage: true });
  await notesOf(a, p1);
  await notesOf(b, p1);
  for (const page of [a, b]) {
    await expectNote(page, new RegExp(`^${escapeRegExp(agenda)}`));
    await expectNote(page, new RegExp(escapeRegExp(fromA)));
    await expectNote(page, new RegExp(escapeRegExp(fromB)));
  }
  await expectNote(b, await noteValue(a));
  await expectSynced(a);
  await expectSynced(b);

  await a.context().close();
  await b.context().close();
});
