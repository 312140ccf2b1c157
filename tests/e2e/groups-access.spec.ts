import { CLOSE_CODES, WS_MESSAGE_TOO_BIG } from '@quire/core';
import { noteText } from '@quire/core/group';
import type { Page } from '@playwright/test';
import { expect, test, type QuireServer } from './support/quire-server.ts';
import {
  GROUP,
  createGroup,
  expectSynced,
  joinGroup,
  expectNote,
  member,
  noteValue,
  openNotes,
  openTab,
  shot,
  syncState,
} from './support/group-ui.ts';
import {
  SYNC_STEP_2,
  SYNC_UPDATE,
  sendRaw,
  storedClock,
  syncFrame,
  tokenOf,
  updateOf,
} from './support/raw-sync.ts';

const PAPER = '2405.01234';
const MAX_FRAME = 64 * 1024;
const SERVER = { env: { QUIRE_SYNC_MAX_FRAME_BYTES: String(MAX_FRAME) } };

const storedNote = async (server: QuireServer, groupId: string): Promise<string> =>
  noteText(await server.storedDoc(groupId), PAPER).toJSON();

/** A types at the end of the note and B (and any other page given) shows the whole text. */
async function write(from: Page, text: string, ...readers: Page[]): Promise<string> {
  const editor = from.getByTestId('note-editor');
  await editor.focus();
  await from.keyboard.press('Control+End');
  await editor.pressSequentially(text);
  const all = await noteValue(from);
  for (const page of readers) await expectNote(page, all);
  return all;
}

test('a wrong token opens nothing: the join page and the sync socket refuse it', async ({
  browser,
  quire,
}) => {
  const server = await quire.start(SERVER);
  const a = await member(browser);
  const { groupId } = await createGroup(a, server.url);
  await openNotes(a, server.url, groupId, PAPER);
  await write(a, 'Only members write here.');
  const before = storedClock(await server.storedDoc(groupId));
  const wrong = 'A'.repeat(43); // the shape of a real token, but no invite's

  // The join link with a wrong token: the join page says so at once (no name asked) and keeps nothing.
  const m = await member(browser);
  await m.goto(`${server.url}/join#${groupId}.${wrong}`);
  await expect(m.getByRole('alert')).toContainText('This invite does not open a group on this server');
  await expect(m.getByLabel('Your name in the group')).toHaveCount(0);
  await m.screenshot({ path: shot('group-join-refused.png') });
  expect(await m.evaluate<string | null>(`localStorage.getItem('quire.groups')`)).toBeNull();

  // A browser holding a wrong token for the group anyway: its socket is refused as unauthorized.
  const forged = {
    id: groupId,
    name: GROUP,
    token: wrong,
    role: 'read-write',
    memberId: 'f'.repeat(32),
    displayName: 'Mallory',
    colour: '#aa3355',
    addedAt: new Date().toISOString(),
  };
  await m.evaluate(`localStorage.setItem('quire.groups', ${JSON.stringify(JSON.stringify([forged]))})`);
  await m.goto(`${server.url}/groups/${groupId}/papers/${PAPER}`);
  await expect(syncState(m)).toHaveAttribute('data-state', 'refused');
  await expect(syncState(m)).toContainText(CLOSE_CODES.unauthorized.reason);
  await expect(m.getByTestId('read-only-note')).toContainText('The server refused this group (unauthorized');
  await expect(m.getByTestId('note-editor')).not.toBeEditable();
  await expectNote(m, ''); // nothing of the group reached it

  // And the same token sending an update by hand is refused before anything is read.
  const intruder = updateOf((doc) => noteText(doc, PAPER).insert(0, 'INTRUDER '));
  const closed = await sendRaw(m, groupId, wrong, syncFrame(SYNC_UPDATE, intruder));
  expect(closed).toEqual(CLOSE_CODES.unauthorized);
  expect(storedClock(await server.storedDoc(groupId))).toEqual(before);
  await expectSynced(a);
  for (const page of [a, m]) await page.context().close();
});

test('revoking an invite in the Invites tab disconnects its member live', async ({ browser, quire }) => {
  const server = await quire.start(SERVER);
  const a = await member(browser);
  const b = await member(browser);
  const { groupId } = await createGroup(a, server.url);

  // A makes a read-write invite for B; B joins with it and opens the notes.
  await a.goto(`${server.url}/groups/${groupId}`);
  await openTab(a, 'Invites');
  await a.getByRole('button', { name: 'Create invite link' }).click();
  const link = await a.getByTestId('new-invite-read-write').inputValue();
  await joinGroup(b, link, 'Ben');
  await openNotes(b, server.url, groupId, PAPER);
  await openNotes(a, server.url, groupId, PAPER);
  const shared = await write(a, 'Read the appendix too.', b);

  // A revokes B's invite (the read-write one that is not A's own).
  await a.goto(`${server.url}/groups/${groupId}`);
  await openTab(a, 'Invites');
  await expect(a.getByTestId('invite')).toHaveCount(3);
  const invite = a
    .getByTestId('invite')
    .and(a.locator('[data-role="read-write"]'))
    .filter({ hasNotText: '(yours)' });
  a.once('dialog', (dialog) => void dialog.accept());
  await invite.getByRole('button', { name: 'Revoke' }).click();
  await expect(invite).toContainText('revoked');

  // B is closed at once, sees why, and can no longer edit; what B had stays readable.
  await expect(syncState(b)).toHaveAttribute('data-state', 'refused');
  await expect(syncState(b)).toContainText(CLOSE_CODES.revoked.reason);
  await expect(b.getByTestId('read-only-note')).toContainText('invite revoked');
  await expect(b.getByTestId('note-editor')).not.toBeEditable();
  await expectNote(b, shared);
  await b.screenshot({ path: shot('group-invite-revoked.png') });

  // A goes on writing; B, even after a reload, is refused at the door and gets none of it.
  await openNotes(a, server.url, groupId, PAPER);
  const later = await write(a, ' Also section 5.');
  await expectSynced(a);
  expect(await storedNote(server, groupId)).toBe(later);
  await b.reload();
  await expect(syncState(b)).toHaveAttribute('data-state', 'refused');
  await expect(syncState(b)).toContainText('invite revoked');
  await expectNote(b, shared);
  // The groups page drops the group from B's browser, saying why.
  await b.goto(`${server.url}/groups`);
  await expect(b.getByRole('main')).toContainText(`Your invite to “${GROUP}” was revoked`);
  await expect(b.getByTestId('my-group')).toHaveCount(0);
  for (const page of [a, b]) await page.context().close();
});

test('a read-only member cannot write, even by hand', async ({ browser, quire }) => {
  const server = await quire.start(SERVER);
  const a = await member(browser);
  const r = await member(browser);
  const { groupId, readOnlyLink } = await createGroup(a, server.url);
  await joinGroup(r, readOnlyLink, 'Rita');
  await openNotes(a, server.url, groupId, PAPER);
  await openNotes(r, server.url, groupId, PAPER);

  // The UI: edits are off and say why; reading works live.
  await expect(r.getByTestId('read-only-note')).toContainText('read-only invite');
  await expect(r.getByTestId('note-editor')).not.toBeEditable();
  await write(a, 'Ada: the baseline is too weak.', r);

  // A write forced from Rita's browser with her token, as an update and as a sync step 2: refused.
  const token = tokenOf(readOnlyLink);
  for (const step of [SYNC_UPDATE, SYNC_STEP_2]) {
    const forced = updateOf((doc) => noteText(doc, PAPER).insert(0, `FORCED ${step} `));
    expect(await sendRaw(r, groupId, token, syncFrame(step, forced))).toEqual(CLOSE_CODES.readOnly);
  }

  // The group never got it: A's next words reach Rita, and neither view nor the store has the intrusion.
  const all = await write(a, ' Ada again.', r);
  expect(all).not.toContain('FORCED');
  expect(await storedNote(server, groupId)).toBe(all);
  await expect(syncState(r)).toHaveAttribute('data-state', 'synced');
  for (const page of [a, r]) await page.context().close();
});

test('an oversize frame closes its connection; the others keep syncing', async ({ browser, quire }) => {
  const server = await quire.start(SERVER);
  const a = await member(browser);
  const b = await member(browser);
  const { groupId, link } = await createGroup(a, server.url);
  await joinGroup(b, link, 'Ben');
  await openNotes(a, server.url, groupId, PAPER);
  await openNotes(b, server.url, groupId, PAPER);
  const token = tokenOf(link);

  // A real update above the limit gets the server's own code and reason; above twice it, ws's 1009.
  const big = updateOf((doc) => noteText(doc, PAPER).insert(0, 'x'.repeat(MAX_FRAME)));
  expect(await sendRaw(a, groupId, token, syncFrame(SYNC_UPDATE, big))).toEqual(CLOSE_CODES.frameTooLarge);
  expect((await sendRaw(a, groupId, token, 2 * MAX_FRAME + 1)).code).toBe(WS_MESSAGE_TOO_BIG);

  // The members' own connections were not touched: A's words still reach B, and B's reach A.
  await expectSynced(a);
  await expectSynced(b);
  await write(a, 'Still here after the big frames.', b);
  const all = await write(b, ' So am I.', a);
  expect(await storedNote(server, groupId)).toBe(all);
  for (const page of [a, b]) await page.context().close();
});
