import { expect, test } from './support/quire-server.ts';
import {
  createGroup,
  escapeRegExp,
  expectSynced,
  joinGroup,
  member,
  expectNote,
  noteValue,
  openNotes,
  shot,
  syncState,
} from './support/group-ui.ts';

/** Notes need no stored paper: any arXiv id has them, so this server imports nothing. */
const PAPER = '2405.01234';

/** A long note, typed key by key: every key press is one update sent through A's provider. */
const BURST = Array.from(
  { length: 6 },
  (_, i) => `Line ${String(i + 1).padStart(2, '0')}: the reward model is trained on pairwise preferences.\n`,
).join('');

test('an edit any member received survives kill -9 of the server mid-burst', async ({ browser, quire }) => {
  test.setTimeout(120_000);
  const server = await quire.start();
  const a = await member(browser);
  const b = await member(browser);
  const { groupId, link, readOnlyLink } = await createGroup(a, server.url);
  await joinGroup(b, link, 'Ben');
  const editorA = await openNotes(a, server.url, groupId, PAPER);
  const editorB = await openNotes(b, server.url, groupId, PAPER);

  // Something from before the burst: a comment of A's that B has.
  const comment = 'Before the crash: read section 2 first.';
  await a.getByLabel('New comment').fill(comment);
  await a.getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(b.getByTestId('comment')).toContainText(comment);

  // A types the long note; once B shows part of it, the server is killed with SIGKILL.
  await editorA.click();
  const typing = editorA.pressSequentially(BURST);
  await expect
    .poll(async () => (await noteValue(b)).length, { intervals: [25], timeout: 30_000 })
    .toBeGreaterThanOrEqual(80);
  await server.kill9();
  // The server is gone: what B holds now is all any member can have received from it.
  await expect(syncState(b)).toHaveAttribute('data-state', 'offline');
  const heldByB = await noteValue(b);
  await typing;
  await expectNote(a, BURST);
  expect(BURST.startsWith(heldByB)).toBe(true);
  expect(heldByB.length).toBeLessThan(BURST.length); // the kill landed mid-burst
  // A kept typing into its own copy while the server was down.
  await expect(syncState(a)).toHaveAttribute('data-state', 'offline');
  expect(Number(await syncState(a).getAttribute('data-unsynced'))).toBeGreaterThan(0);

  // A and B stay off the network, so after the restart only the server's copy can reach anyone.
  await a.context().setOffline(true);
  await b.context().setOffline(true);
  await server.restart();

  // A new member, in a fresh context, reads everything B had received (and perhaps a little more).
  const c = await member(browser);
  await joinGroup(c, readOnlyLink, 'Cleo');
  const editorC = await openNotes(c, server.url, groupId, PAPER);
  await expect(editorC).toBeVisible();
  await expectNote(c, new RegExp(`^${escapeRegExp(heldByB)}`));
  await expect(c.getByTestId('comment')).toContainText(comment);
  await c.screenshot({ path: shot('group-after-kill.png'), fullPage: true });

  // Back on the network, A and B reconnect by themselves; A's offline keys reach everyone.
  await a.context().setOffline(false);
  await b.context().setOffline(false);
  await expectSynced(a);
  await expectSynced(b);
  for (const page of [a, b, c]) await expectNote(page, BURST);

  // A second crash with nobody held back: the providers' own retries bring all three back.
  await server.kill9();
  await expect(syncState(b)).toHaveAttribute('data-state', 'offline');
  await server.restart();
  // Retries back off up to 2.5 s, so the wait may be longer than the default.
  for (const page of [a, b, c]) {
    await expect(syncState(page)).toHaveAttribute('data-state', 'synced', { timeout: 15_000 });
  }
  const after = 'After the restart: B writes again.';
  await editorB.focus();
  await b.keyboard.press('Control+End');
  await editorB.pressSequentially(after);
  for (const page of [a, c]) await expectNote(page, BURST + after);

  for (const page of [a, b, c]) await page.context().close();
});
