import { expect, test } from '@playwright/test';
import {
  candidate,
  createGroup,
  expectNote,
  GROUP,
  joinGroup,
  member,
  noteValue,
  openTab,
  shot,
  syncState,
} from './support/group-ui.ts';

const SLUG = 'rl-for-llm-agents';
test('two members share the queue, the weekly pick and a note, live', async ({ browser }) => {
  const a = await member(browser);
  const b = await member(browser);

  // A creates the group and B joins it from the read-write invite link.
  const { link, groupId } = await createGroup(a);
  await joinGroup(b, link, 'Ben');
  await expect(b.getByTestId('queue-item')).toHaveCount(0);

  // With the group active, a topic's cards save to its queue: A saves two papers with S.
  await a.goto(`/topics/${SLUG}`);
  const cards = a.getByTestId('paper-card');
  await expect(cards.nth(1)).toBeVisible();
  await expect(cards.nth(0).getByTestId('save-button')).toHaveText(`Save to ${GROUP}`);
  const first = (await cards.nth(0).getAttribute('data-paper-id')) ?? '';
  const second = (await cards.nth(1).getAttribute('data-paper-id')) ?? '';
  await a.keyboard.press('j');
  await a.keyboard.press('s');
  await expect(cards.nth(0).getByTestId('save-button')).toHaveText(`Saved to ${GROUP}`);
  await expect(a.getByTestId('announcer')).toContainText(`Saved to the queue of ${GROUP}`);
  await a.keyboard.press('j');
  await a.keyboard.press('s');
  await expect(cards.nth(1).getByTestId('save-button')).toHaveAttribute('aria-pressed', 'true');

  // B's open queue shows both, with who added them, without a reload.
  const queueB = b.getByTestId('queue-item');
  await expect(queueB).toHaveCount(2);
  await expect(b.locator(`[data-testid="queue-item"][data-paper-id="${first}"]`)).toContainText(
    'Added by Ada',
  );
  await expect(syncState(b)).toHaveText(/synced/);

  // B starts reading the first; A sees the status change.
  await b
    .locator(`[data-testid="queue-item"][data-paper-id="${first}"]`)
    .getByTestId('queue-status')
    .selectOption('reading');
  await a.goto(`/groups/${groupId}`);
  await expect(a.locator(`[data-testid="queue-item"][data-paper-id="${first}"]`)).toHaveAttribute(
    'data-status',
    'reading',
  );

  // A nominates both for this week; both vote, and both see the same winner.
  for (const id of [first, second]) {
    await a
      .locator(`[data-testid="queue-item"][data-paper-id="${id}"]`)
      .getByTestId('nominate-button')
      .click();
  }
  await expect(b.getByTestId('nominate-button').and(b.locator('[aria-pressed="true"]'))).toHaveCount(2);
  await b.screenshot({ path: shot('group-queue.png'), fullPage: true });

  await openTab(a, 'Weekly pick');
  await openTab(b, 'Weekly pick');
  await candidate(a, second).getByTestId('vote-button').click();
  await candidate(b, first).getByTestId('vote-button').click();
  await candidate(b, second).getByTestId('vote-button').click();
  await expect(candidate(b, second).getByTestId('vote-button')).toHaveAttribute('aria-pressed', 'true');
  await expect(b.getByTestId('my-votes')).toContainText('You have used 2 of 3 votes');
  for (const page of [a, b]) {
    await expect(candidate(page, second).getByTestId('approvals')).toHaveText('2 votes');
    await expect(candidate(page, first).getByTestId('approvals')).toHaveText('1 vote');
    await expect(page.getByTestId('pick-winner')).toHaveAttribute('data-paper-id', second);
  }
  // Closing the week records the same pick for both.
  await a.getByTestId('close-week').click();
  await expect(b.getByTestId('pick-winner')).toContainText('This week’s pick');
  await expect(b.getByTestId('pick-winner')).toHaveAttribute('data-paper-id', second);
  await b.screenshot({ path: shot('group-pick.png'), fullPage: true });

  // Both open the first paper's notes and type into them at the same time.
  await openTab(a, 'Queue');
  await a
    .locator(`[data-testid="queue-item"][data-paper-id="${first}"]`)
    .getByRole('link', { name: 'Notes' })
    .click();
  await b.goto(`/groups/${groupId}/papers/${first}`);
  const editorA = a.getByTestId('note-editor');
  const editorB = b.getByTestId('note-editor');
  await expect(editorA).toBeEditable();
  await expect(editorB).toBeEditable();
  await expect(a.getByTestId('present-member')).toContainText('Ben');

  await editorA.click();
  await editorB.click();
  const fromA = 'Ada: the *credit assignment* trick is neat. ';
  const fromB = 'Ben: check `eq. 4` against https://arxiv.org/abs/1707.06347 please. ';
  await Promise.all([
    editorA.pressSequentially(fromA, { delay: 15 }),
    editorB.pressSequentially(fromB, { delay: 15 }),
  ]);
  for (const page of [a, b]) {
    await expectNote(page, new RegExp(escape(fromA.trim())));
    await expectNote(page, new RegExp(escape(fromB.trim())));
  }
  await expectNote(b, await noteValue(a));

  // The preview renders the Markdown (emphasis, code, a web link) from the merged text.
  const preview = a.getByTestId('note-preview');
  await expect(preview.locator('em')).toHaveText('credit assignment');
  await expect(preview.locator('code')).toHaveText('eq. 4');
  await expect(preview.getByRole('link', { name: 'https://arxiv.org/abs/1707.06347' })).toBeVisible();

  // A comment reaches the other member too.
  await b.getByLabel('New comment').fill('Let us go through section 3 first.');
  await b.getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(a.getByTestId('comment')).toContainText('Let us go through section 3 first.');
  await expect(a.getByTestId('comment')).toContainText('Ben');
  await a.screenshot({ path: shot('group-note.png'), fullPage: true });

  await a.context().close();
  await b.context().close();
});

test('a read-only invite shows the group with its edit controls off', async ({ browser }) => {
  const a = await member(browser);
  const r = await member(browser);
  await createGroup(a);
  const readOnly = await a.getByTestId('invite-read-only').inputValue();

  await r.goto(readOnly);
  await r.getByLabel('Your name in the group').fill('Rita');
  await r.getByRole('button', { name: 'Join group' }).click();
  await expect(r.getByTestId('read-only-note')).toContainText('read-only invite');
  await expect(syncState(r)).toHaveAttribute('data-state', 'synced');
  // Save and Follow keep to her own browser, as before groups.
  await r.goto(`/topics/${SLUG}`);
  await expect(r.getByTestId('paper-card').first().getByTestId('save-button')).toHaveText('Save');

  await a.context().close();
  await r.context().close();
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
