import type { Page } from '@playwright/test';
import { noteMarkdown } from '@quire/core/group';
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

interface AxNode {
  role?: { value: string };
  name?: { value: string };
  description?: { value: string };
}

/** The page's text boxes as Chromium's accessibility tree names and describes them. */
async function textboxes(page: Page): Promise<{ name?: string; description?: string }[]> {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AxNode[] };
  await cdp.detach();
  return nodes
    .filter((node) => node.role?.value === 'textbox')
    .map((node) => ({ name: node.name?.value, description: node.description?.value }));
}

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
  for (let i = 0; i < 40 && (await noteValue(a)) !== fromB; i++) await a.keyboard.press('Control+z');
  await expectNote(a, fromB);
  await expectNote(b, fromB);
  await a.keyboard.press('Control+y');
  await expect.poll(() => noteValue(a)).not.toBe(fromB);
  expect(await noteValue(a)).toContain(fromB);
  await expectSynced(a);
  await expectSynced(b);
  await expectNote(b, await noteValue(a));

  for (const page of [a, b]) await page.context().close();
});

test('spaces typed beside another member’s caret and after Markdown marks are stored as spaces; a pasted no-break space stays one', async ({
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
  // Read from wherever this server keeps its groups: the SQLite file, or PostgreSQL in the postgres project.
  const stored = async (): Promise<string> => noteMarkdown(await server.storedDoc(groupId), PAPER);
  // The editor is named and described by the label and hint the page shows beside it, across the
  // editor's shadow root (as Chromium's accessibility tree has them).
  expect(await textboxes(a)).toContainEqual({
    name: 'Notes (Markdown, shared live)',
    description: expect.stringMatching(/^Saved on this device/),
  });

  await editorA.click();
  await editorA.pressSequentially('Ada:\nend');
  await expectNote(b, 'Ada:\nend');
  // B's caret goes to the end of the first line, right where A types next: A's editor draws it just
  // after A's cursor, and it stays there while A types.
  await editorB.focus();
  await b.keyboard.press('Control+Home');
  await b.keyboard.press('End');
  await expect(remoteCaret(a, 'Ben')).toHaveCount(1);
  await editorA.focus();
  await a.keyboard.press('Control+Home');
  await a.keyboard.press('End');
  // Spaces that meet an inline element: B's caret, the highlighted quote mark, the emphasis marks. The
  // app's shortcut keys (`/` opens search, J moves) are text here.
  const typed = ' a b\n> c d *e* f j/k';
  await editorA.pressSequentially(typed, { delay: 10 });
  const want = `Ada:${typed}\nend`;
  await expect.poll(stored, { message: 'the note the server stored' }).toBe(want);
  await expectNote(a, want);
  await expectNote(b, want);

  // A no-break space the member pastes is what they meant: it is kept, in the note and on the server.
  await a.keyboard.press('Control+End');
  const pasted = ' 10\u00a0km';
  // The tests project has no DOM types, so the in-page code is passed as source text.
  await a.evaluate(`(() => {
    const data = new DataTransfer();
    data.setData('text/plain', ${JSON.stringify(pasted)});
    document.querySelector('[data-testid="note-editor-host"] > div').shadowRoot
      .querySelector('[data-testid="note-editor"]')
      .dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  })()`);
  await expect.poll(stored, { message: 'the note the server stored' }).toBe(`${want}${pasted}`);
  await expectNote(b, `${want}${pasted}`);
  // Esc leaves the editor, as it leaves every text field in the app.
  await editorA.focus();
  await a.keyboard.press('Escape');
  await expect(editorA).not.toBeFocused();

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
