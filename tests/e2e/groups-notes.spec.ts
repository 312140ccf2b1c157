import type { Page } from '@playwright/test';
import { expect, test } from './support/quire-server.ts';
import {
  createGroup,
  expectNote,
  expectSynced,
  joinGroup,
  member,
  noteEditor,
  noteValue,
  openNotes,
  openTab,
  remoteCaret,
  shot,
} from './support/group-ui.ts';

const PAPER = '2405.01234';

/** The member's colour as this browser keeps it (the one it publishes to the others). */
const colourOf = (page: Page): Promise<string> =>
  page.evaluate<string>(`JSON.parse(localStorage.getItem('quire.groups'))[0].colour`);

test('two members edit one note at once in the editor: cursors in their colours, own undo, maths and quotes', async ({
  browser,
  quire,
}) => {
  const server = await quire.start();
  const a = await member(browser);
  const b = await member(browser);
  const { groupId, link } = await createGroup(a, server.url);
  await joinGroup(b, link, 'Ben');
  const editorA = await openNotes(a, server.url, groupId, PAPER);
  const editorB = await openNotes(b, server.url, groupId, PAPER);
  await expect(editorA).toBeEditable();
  await expect(editorB).toBeEditable();

  // A writes the first line; B sees it and A's caret, in A's colour, with A's name.
  const fromA = 'Ada: the reward model is the weak point.';
  await editorA.click();
  await editorA.pressSequentially(fromA);
  await expectNote(b, fromA);
  await expect(remoteCaret(b, 'Ada')).toHaveCount(1);
  await expect(remoteCaret(b, 'Ada')).toHaveAttribute('style', new RegExp(await colourOf(a)));

  // B adds a line of its own at the end while A goes on typing at the start: both land, in both.
  await editorB.focus();
  await b.keyboard.press('Control+End');
  await a.keyboard.press('Control+Home');
  const fromB = '\n> Ben: $x^2$ grows faster than the baseline.';
  const aTop = 'Agenda. ';
  await Promise.all([
    editorB.pressSequentially(fromB, { delay: 10 }),
    editorA.pressSequentially(aTop, { delay: 10 }),
  ]);
  const merged = aTop + fromA + fromB;
  await expectNote(a, merged);
  await expectNote(b, merged);
  // Each sees the other's cursor where the other stopped typing.
  await expect(remoteCaret(a, 'Ben')).toHaveCount(1);
  await expect(remoteCaret(a, 'Ben')).toHaveAttribute('style', new RegExp(await colourOf(b)));
  await expect(remoteCaret(b, 'Ada')).toHaveCount(1);

  // The preview renders the quote and its maths with the abstracts' converter.
  const preview = a.getByTestId('note-preview');
  await expect(preview.locator('blockquote')).toContainText('grows faster than the baseline');
  await expect(preview.locator('blockquote .rt-math sup')).toHaveText('2');
  await a.screenshot({ path: shot('group-note-editor.png'), fullPage: true });

  // A's undo takes back only A's typing, however it was grouped; B's line stays. Redo brings A's back.
  await editorA.focus();
  const spaces = (text: string): string => text.replace(/\u00a0/g, ' ');
  for (let i = 0; i < 40 && spaces(await noteValue(a)) !== fromB; i++) await a.keyboard.press('Control+z');
  await expectNote(a, fromB);
  await expectNote(b, fromB);
  await a.keyboard.press('Control+y');
  await expect.poll(async () => spaces(await noteValue(a))).not.toBe(fromB);
  expect(spaces(await noteValue(a))).toContain(fromB);
  await expectSynced(a);
  await expectSynced(b);
  await expectNote(b, await noteValue(a));

  for (const page of [a, b]) await page.context().close();
});

test('a comment mentioning a member is highlighted, completed while typing, and lands in their inbox', async ({
  browser,
  quire,
}) => {
  const server = await quire.start();
  const a = await member(browser);
  const b = await member(browser);
  const { groupId, link } = await createGroup(a, server.url);
  await joinGroup(b, link, 'Ben');
  await openNotes(a, server.url, groupId, PAPER);
  await expect(noteEditor(a)).toBeEditable();

  // A types "@Be": the members to mention are offered; Enter takes Ben.
  const box = a.getByLabel('New comment');
  await box.click();
  await box.pressSequentially('Thanks @Be');
  const options = a.getByTestId('mention-options');
  await expect(options.getByRole('option')).toHaveText(['@Ben']);
  await a.keyboard.press('Enter');
  await expect(options).toHaveCount(0);
  await expect(box).toHaveValue('Thanks @Ben ');
  await box.pressSequentially('can you check eq. 4?');
  await a.getByRole('button', { name: 'Comment', exact: true }).click();
  const comment = a.getByTestId('comment');
  await expect(comment.getByTestId('mention')).toHaveText('@Ben');

  // B finds it in the inbox's Mentions, with who wrote it and a link to the paper's notes.
  await b.goto(`${server.url}/groups/${groupId}`);
  await openTab(b, 'Inbox');
  const mentions = b.getByTestId('mentions').getByTestId('mention-item');
  await expect(mentions).toHaveCount(1);
  await expect(mentions).toContainText('Ada');
  await expect(mentions).toContainText('can you check eq. 4?');
  await expect(mentions.getByTestId('mention')).toHaveText('@Ben');
  await b.screenshot({ path: shot('group-mentions.png'), fullPage: true });
  await mentions.getByRole('link', { name: PAPER }).click();
  await expect(b.getByTestId('comment')).toContainText('can you check eq. 4?');
  // A's own inbox lists no mention: A wrote it.
  await a.goto(`${server.url}/groups/${groupId}`);
  await openTab(a, 'Inbox');
  await expect(a.getByTestId('mentions').getByTestId('mention-item')).toHaveCount(0);

  for (const page of [a, b]) await page.context().close();
});
