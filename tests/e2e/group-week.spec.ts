/**
 * Issue 12's "Done when", as one script: a reading group's week with two members, A (Ada) and B (Ben), in
 * browser contexts of their own against the real server, each page on a clock the test moves. B joins from
 * A's link, which names the group, the role and who invited before B types a name; both triage the inbox by
 * keyboard at once, and the server's stored document holds each paper triaged exactly once, by whom; Z
 * restores one; both write one note at once and see each other's caret; a comment mentions B and lands in
 * B's inbox; both vote while the list stays in place; the deadline passes and both show the same closed
 * week and winner; the calendar feed lists the meeting with the winner and presenter; the exports carry
 * what the issue lists. Waits are on what the pages and the server show, never on time.
 */
import { readFile } from 'node:fs/promises';
import ICAL from 'ical.js';
import { expect, test, type Browser, type Download, type Locator, type Page } from '@playwright/test';
import { listMembers, listQueue, listTriage, memberName } from '@quire/core/group';
import {
  candidate,
  expectNote,
  expectSynced,
  GROUP,
  member,
  openNotes,
  openTab,
  queueItem,
  remoteCaret,
  shot,
  syncState,
} from './support/group-ui.ts';
import { sharedServerStore, storedGroupDoc } from './support/quire-server.ts';
import { pickInboxTopic } from './support/inbox-topic.ts';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** A member whose page runs on a clock the test moves (Playwright's clock), starting from the real now. */
async function memberWithClock(browser: Browser): Promise<Page> {
  const page = await member(browser);
  await page.clock.install();
  return page;
}

/** Moves the page's clock to `iso`, firing the timers due on the way, then one tick of the app's clock. */
async function moveClockTo(page: Page, iso: string): Promise<void> {
  const pageNow = await page.evaluate(() => Date.now());
  await page.clock.fastForward(Date.parse(iso) - pageNow);
  await page.clock.runFor(6_000);
}

const inboxRow = (page: Page, id: string): Locator =>
  page.locator(`[data-testid="inbox-item"][data-paper-id="${id}"]`);
const focusedRow = (page: Page): Locator =>
  page.locator('[data-testid="inbox-item"]:has([data-nav-open]:focus)');

async function expectFocusOn(page: Page, id: string): Promise<void> {
  await expect(focusedRow(page)).toHaveAttribute('data-paper-id', id);
}

async function expectTriage(page: Page, id: string, state: string, by?: string): Promise<void> {
  await expect(inboxRow(page, id)).toHaveAttribute('data-state', state);
  if (by) await expect(inboxRow(page, id).getByTestId('triage-state')).toContainText(`by ${by}`);
}

/**
 * The group as playwright.config.ts's shared server of this project stored it (that server imported the
 * corpus: the inbox needs its papers), on SQLite or, in the postgres project, on PostgreSQL.
 */
function storedDoc(groupId: string) {
  return storedGroupDoc(sharedServerStore(test.info().project.use.baseURL), groupId);
}

/** Each triaged paper as the server stored it: [paper, decision, member's name], by paper id. */
async function storedTriage(groupId: string): Promise<[string, string, string][]> {
  const doc = await storedDoc(groupId);
  return listTriage(doc)
    .map((t): [string, string, string] => [t.paperId, t.decision, memberName(doc, t.by)])
    .sort(([x], [y]) => x.localeCompare(y));
}

async function storedQueue(groupId: string): Promise<string[]> {
  return listQueue(await storedDoc(groupId))
    .map((item) => item.paper.id)
    .sort();
}

/** The candidates of the pick, top to bottom, each with where it stands on the page. */
async function candidatePlaces(page: Page): Promise<string[]> {
  const places: string[] = [];
  for (const row of await page.getByTestId('candidate').all()) {
    const box = await row.boundingBox();
    places.push(`${await row.getAttribute('data-paper-id')} @${Math.round(box?.y ?? -1)}`);
  }
  return places;
}

async function downloaded(page: Page, button: Locator): Promise<{ name: string; text: string }> {
  const [file]: [Download, void] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return { name: file.suggestedFilename(), text: await readFile(await file.path(), 'utf8') };
}

test('a reading group’s week, end to end: join, triage, undo, one note, a mention, the vote, the deadline, the feed, the exports', async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const { topic, ids } = await pickInboxTopic(request);
  const n = ids.length;
  const id = (i: number): string => ids[i] ?? '';
  const a = await memberWithClock(browser);
  const b = await memberWithClock(browser);

  // Monday: A starts the group. B opens A's link: the group, the role and who invited come first.
  await a.goto('/groups');
  await a.getByLabel('Group name').fill(GROUP);
  await a.getByLabel('Your name in the group').fill('Ada');
  await a.getByRole('button', { name: 'Create group' }).click();
  const link = await a.getByTestId('created-group').getByTestId('invite-read-write').inputValue();
  const groupId = /\/join#([\w-]+)\./.exec(link)?.[1] ?? '';
  expect(groupId).not.toBe('');

  await b.goto(link);
  const preview = b.getByTestId('join-preview');
  await expect(preview.getByTestId('join-group-name')).toHaveText(GROUP);
  await expect(preview).toHaveAttribute('data-role', 'read-write');
  await expect(preview.getByTestId('join-role')).toContainText('Member');
  await expect(preview.getByTestId('join-invited-by')).toHaveText('Ada invited you to join');
  await expect(b.getByLabel('Your name in the group')).toHaveValue('');
  await b.screenshot({ path: shot('group-week-join.png') });
  await b.getByLabel('Your name in the group').fill('Ben');
  await b.getByRole('button', { name: 'Join group' }).click();
  await expect(b.getByRole('heading', { name: GROUP, level: 1 })).toBeVisible();
  await expect(syncState(b)).toHaveAttribute('data-state', 'synced');

  // A link B makes in the Invites tab names B to whoever opens it.
  await b.goto(`/groups/${groupId}/invites`);
  await b.getByLabel('New invite').selectOption('read-only');
  await b.getByRole('button', { name: 'Create invite link' }).click();
  const readOnlyLink = await b.getByTestId('new-invite-read-only').inputValue();
  const guest = await member(browser);
  await guest.goto(readOnlyLink);
  await expect(guest.getByTestId('join-preview')).toHaveAttribute('data-role', 'read-only');
  await expect(guest.getByTestId('join-invited-by')).toHaveText('Ben invited you to join');
  await guest.context().close();

  // A follows a topic for the group; both open the inbox and see the same papers.
  await a.goto(`/topics/${topic.slug}`);
  await a.getByTestId('follow-button').click();
  await expect(a.getByTestId('follow-button')).toHaveAttribute('aria-pressed', 'true');
  await a.goto(`/groups/${groupId}/inbox`);
  await b.goto(`/groups/${groupId}/inbox`);
  for (const page of [a, b]) {
    await expect(page.getByTestId('inbox-item')).toHaveCount(n);
    await expect(page.getByTestId('inbox-count')).toContainText(`${n} to triage`);
  }

  // Both triage at once by keyboard: A from the top, B from the middle (J down past it, K back, J again).
  // S and X act and go on to the next untriaged paper, so neither presses J between papers.
  const half = Math.ceil(n / 2);
  const key = (i: number): 's' | 'x' => ((i < half ? i : i - half) % 2 === 0 ? 's' : 'x');
  const decision = (i: number): string => (key(i) === 's' ? 'saved' : 'dismissed');
  for (let i = 0; i <= half; i++) {
    await b.keyboard.press('j');
    await expectFocusOn(b, id(i));
  }
  await b.keyboard.press('k');
  await expectFocusOn(b, id(half - 1));
  await b.keyboard.press('j');
  await expectFocusOn(b, id(half));
  await a.keyboard.press('j');
  await expectFocusOn(a, id(0));
  async function triageRun(page: Page, from: number, to: number): Promise<void> {
    for (let i = from; i < to; i++) {
      await expectFocusOn(page, id(i));
      await page.keyboard.press(key(i));
      await expectTriage(page, id(i), decision(i), 'you');
    }
  }
  await Promise.all([triageRun(a, 0, half), triageRun(b, half, n)]);
  for (const page of [a, b]) await expect(page.getByTestId('inbox-count')).toContainText('0 to triage');
  await expectTriage(a, id(n - 1), decision(n - 1), 'Ben');
  await expectTriage(b, id(0), decision(0), 'Ada');

  // What the server stored: every paper triaged exactly once, by the member who pressed the key, and the
  // queue holds exactly the saved ones.
  const expected = ids
    .map((paperId, i): [string, string, string] => [paperId, decision(i), i < half ? 'Ada' : 'Ben'])
    .sort(([x], [y]) => x.localeCompare(y));
  const savedIds = (except: string | null): string[] =>
    ids.filter((paperId, i) => key(i) === 's' && paperId !== except).sort();
  await expect.poll(() => storedTriage(groupId), { message: 'the stored triage' }).toEqual(expected);
  await expect.poll(() => storedQueue(groupId), { message: 'the stored queue' }).toEqual(savedIds(null));
  const names = listMembers(await storedDoc(groupId)).map((m) => m.name);
  expect(names.sort()).toEqual(['Ada', 'Ben']);
  await a.screenshot({ path: shot('group-week-triaged.png'), fullPage: true });

  // Z takes back A's last decision: that paper is open again for both, and in the stored document.
  const undone = id(half - 1);
  await a.keyboard.press('z');
  await expectTriage(a, undone, 'open');
  await expectTriage(b, undone, 'open');
  await expectFocusOn(a, undone);
  await expect(a.getByTestId('inbox-count')).toContainText('1 to triage');
  await expect
    .poll(() => storedTriage(groupId), { message: 'the stored triage after undo' })
    .toEqual(expected.filter(([paperId]) => paperId !== undone));
  await expect.poll(() => storedQueue(groupId)).toEqual(savedIds(undone));
  // A decides again, the same way: everything is triaged once more.
  await a.keyboard.press(key(half - 1));
  await expectTriage(b, undone, decision(half - 1), 'Ada');
  await expect.poll(() => storedTriage(groupId)).toEqual(expected);

  // Tuesday: both write the first saved paper's note at once, each seeing the other's caret by name.
  const noted = id(0);
  const editorA = await openNotes(a, '', groupId, noted);
  const editorB = await openNotes(b, '', groupId, noted);
  await expect(editorA).toBeEditable();
  await expect(editorB).toBeEditable();
  const first = '# Summary\nAda: the reward model is the weak point.';
  await editorA.click();
  await editorA.pressSequentially(first);
  await expectNote(b, first);
  await editorB.focus();
  await b.keyboard.press('Control+End');
  await a.keyboard.press('Control+Home');
  await a.keyboard.press('End');
  const fromA = ' and agenda';
  const fromB = '\n> Ben: $x^2$ grows faster than the baseline.';
  await Promise.all([
    editorA.pressSequentially(fromA, { delay: 10 }),
    editorB.pressSequentially(fromB, { delay: 10 }),
  ]);
  const note = `# Summary${fromA}\nAda: the reward model is the weak point.${fromB}`;
  await expectNote(a, note);
  await expectNote(b, note);
  await expect(remoteCaret(a, 'Ben')).toHaveCount(1);
  await expect(remoteCaret(b, 'Ada')).toHaveCount(1);
  await expectSynced(a);
  await expectSynced(b);
  await a.screenshot({ path: shot('group-week-note.png'), fullPage: true });

  // A comments, mentioning B (completed from "@Be"); B replies in the thread and finds the mention in the
  // inbox.
  const box = a.getByLabel('New comment');
  await box.click();
  await box.pressSequentially('Thanks @Be');
  await expect(a.getByTestId('mention-options').getByRole('option')).toHaveText(['@Ben']);
  await a.keyboard.press('Enter');
  await box.pressSequentially('can you check eq. 4?');
  await a.getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(a.getByTestId('comment').getByTestId('mention')).toHaveText('@Ben');
  const comment = b.getByTestId('comment').first();
  await expect(comment).toContainText('can you check eq. 4?');
  await comment.getByRole('button', { name: 'Reply' }).click();
  await b.getByLabel('Reply to Ada').fill('Eq. 4 holds; the bound is loose.');
  await b.getByRole('button', { name: 'Post reply' }).click();
  await expect(a.getByTestId('comment')).toHaveCount(2);
  await b.goto(`/groups/${groupId}/inbox`);
  const mentions = b.getByTestId('mentions').getByTestId('mention-item');
  await expect(mentions).toHaveCount(1);
  await expect(mentions).toContainText('Ada');
  await expect(mentions).toContainText('can you check eq. 4?');
  await expect(mentions.getByTestId('mention')).toHaveText('@Ben');

  // Wednesday: A sets the meeting (in two days, 12:00 UTC; voting closes 24 hours before) and nominates
  // three saved papers, the noted one last.
  const meetingDay = new Date(Date.now() + 2 * 86_400_000);
  const weekday = WEEKDAYS[(meetingDay.getUTCDay() + 6) % 7] ?? 'Monday';
  await a.goto(`/groups/${groupId}/meeting`);
  await a.getByLabel('Every').selectOption({ label: weekday });
  await a.getByLabel('at', { exact: true }).fill('12:00');
  await a.getByLabel('time zone').fill('UTC');
  await a.getByRole('button', { name: 'Save meeting' }).click();
  await expect(a.getByTestId('meeting-summary')).toContainText(`Every ${weekday} at 12:00 (UTC)`);
  const [p1, p2] = savedIds(null).filter((paperId) => paperId !== noted) as [string, string];
  const nominated = [p1, p2, noted];
  await a.goto(`/groups/${groupId}/queue`);
  for (const paperId of nominated) {
    await queueItem(a, paperId).getByTestId('nominate-button').click();
  }

  // Both vote; every row keeps its place on the page, in both, through every vote.
  await a.goto(`/groups/${groupId}/pick`);
  await b.goto(`/groups/${groupId}/pick`);
  for (const page of [a, b]) {
    await expect(page.getByTestId('candidate')).toHaveCount(3);
    await expect(page.getByTestId('candidates')).toHaveAttribute('data-order', 'nominated');
  }
  const placesA = await candidatePlaces(a);
  const placesB = await candidatePlaces(b);
  expect(placesA.map((p) => p.split(' ')[0])).toEqual(nominated);
  const votes: [Page, string, string][] = [
    [a, noted, '1 vote'],
    [b, p2, '1 vote'],
    [b, noted, '2 votes'],
  ];
  for (const [voter, paperId, tally] of votes) {
    await candidate(voter, paperId).getByTestId('vote-button').click();
    for (const page of [a, b]) {
      await expect(candidate(page, paperId).getByTestId('approvals')).toHaveText(tally);
    }
    expect(await candidatePlaces(a)).toEqual(placesA);
    expect(await candidatePlaces(b)).toEqual(placesB);
  }
  for (const page of [a, b]) {
    await expect(page.getByTestId('pick-winner')).toHaveAttribute('data-paper-id', noted);
  }

  // Thursday: the deadline passes on both clocks. Both show the same closed week and winner, ranked.
  const deadline = (await a.getByTestId('pick-deadline').getAttribute('data-deadline')) ?? '';
  expect(Date.parse(deadline)).toBe(
    Date.parse(`${meetingDay.toISOString().slice(0, 10)}T12:00:00Z`) - 86_400_000,
  );
  const afterDeadline = new Date(Date.parse(deadline) + 60_000).toISOString();
  await Promise.all([moveClockTo(a, afterDeadline), moveClockTo(b, afterDeadline)]);
  const week = await a.getByTestId('weekly-pick').getAttribute('data-week');
  for (const page of [a, b]) {
    await expect(page.getByTestId('pick-status')).toHaveAttribute('data-phase', 'closed');
    await expect(page.getByTestId('weekly-pick')).toHaveAttribute('data-week', week ?? '');
    await expect(page.getByTestId('pick-winner')).toHaveAttribute('data-paper-id', noted);
    await expect(page.getByTestId('pick-winner')).toContainText('chosen when voting closed');
    await expect(page.getByTestId('candidates')).toHaveAttribute('data-order', 'ranked');
    await expect(page.getByTestId('pick-announcement')).toHaveAttribute('data-paper-id', noted);
    await expect(candidate(page, p1).getByTestId('vote-button')).toBeDisabled();
    await expect(syncState(page)).toHaveAttribute('data-state', 'synced');
  }
  await expect(b.getByTestId('pick-announcement')).toContainText('by Ada');
  await b.screenshot({ path: shot('group-week-pick-closed.png'), fullPage: true });

  // The calendar feed, fetched as a calendar app would: the meeting, with the winner and the presenter.
  await a.goto(`/groups/${groupId}/meeting`);
  await a.getByRole('button', { name: 'Create a calendar link' }).click();
  const feedUrl = await a.getByTestId('calendar-feed-url').inputValue();
  expect(feedUrl).toMatch(/\/api\/calendar\/[\w-]{43}\.ics$/);
  const feed = await request.get(feedUrl);
  expect(feed.headers()['content-type']).toBe('text/calendar; charset=utf-8');
  const calendar = new ICAL.Component(ICAL.parse(await feed.text()) as unknown[]);
  const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
  const meeting = events.find((e) =>
    e.startDate.toJSDate().toISOString().startsWith(meetingDay.toISOString().slice(0, 10)),
  );
  expect(meeting?.startDate.toJSDate().toISOString().slice(11, 16)).toBe('12:00');
  expect(meeting?.component.getFirstPropertyValue('x-quire-paper')).toBe(noted);
  expect(meeting?.description).toContain('Presenter: Ada');
  expect(meeting?.description).toContain(`https://arxiv.org/abs/${noted}`);

  // Friday: the picked paper was discussed. The exports: BibTeX of the queue, then only "discussed" as
  // BibTeX, CSL-JSON and Markdown with its notes, its comment thread and the pick history.
  await a.goto(`/groups/${groupId}/queue`);
  await queueItem(a, noted).getByTestId('queue-status').selectOption('discussed');
  await openTab(a, 'Export');
  const bib = await downloaded(a, a.getByTestId('export-bibtex'));
  const saved = savedIds(null);
  expect(bib.text.match(/^@misc\{/gm)).toHaveLength(saved.length);
  for (const paperId of saved) {
    expect(bib.text).toContain(`doi = {10.48550/arXiv.${paperId}}`);
    expect(bib.text).toContain(`eprint = {${paperId}}`);
  }
  expect(bib.text).toMatch(/^ {2}month = [a-z]{3},$/m);
  expect(bib.text).toMatch(/^ {2}abstract = \{.{40,}\},$/m);
  expect(bib.text).toMatch(/^ {2}keywords = \{.+\}$/m);
  expect(bib.text).toContain(topic.name.split(' ')[0]);

  for (const status of ['queued', 'reading', 'archived']) {
    await a.getByTestId(`export-status-${status}`).uncheck();
  }
  await expect(a.getByTestId('export-selection')).toContainText('1 paper will be exported');
  const discussed = await downloaded(a, a.getByTestId('export-bibtex'));
  expect(discussed.name).toMatch(/-discussed\.bib$/);
  expect(discussed.text.match(/^@misc\{/gm)).toHaveLength(1);
  expect(discussed.text).toContain(`eprint = {${noted}}`);

  const csl = await downloaded(a, a.getByTestId('export-csl'));
  const items = JSON.parse(csl.text) as Record<string, unknown>[];
  expect(items).toHaveLength(1);
  expect(items[0]).toMatchObject({
    type: 'article',
    publisher: 'arXiv',
    number: `arXiv:${noted}`,
    DOI: `10.48550/arXiv.${noted}`,
    URL: `https://arxiv.org/abs/${noted}`,
  });
  expect(String(items[0]?.abstract).length).toBeGreaterThan(40);
  expect(String(items[0]?.keyword)).not.toBe('');

  const md = await downloaded(a, a.getByTestId('export-markdown'));
  expect(md.text).toContain(`[${noted}`);
  expect(md.text).toContain('- **Status:** discussed');
  expect(md.text).toContain('### Abstract');
  // The note's "# Summary" sits under the paper's heading; the quote and its maths are kept as written.
  expect(md.text).toContain('### Notes\n\n#### Summary and agenda\nAda: the reward model is the weak point.');
  expect(md.text).toContain('> Ben: $x^2$ grows faster than the baseline.');
  // The comment thread as a thread: B's reply nested under A's comment.
  expect(md.text).toMatch(/^- \*\*Ada\*\* \(.+\): Thanks @Ben can you check eq\. 4\?$/m);
  expect(md.text).toMatch(/^ {2}- \*\*Ben\*\* \(.+\): Eq\. 4 holds; the bound is loose\.$/m);
  expect(md.text).toContain('## Weekly picks');
  expect(md.text).toMatch(
    new RegExp(
      `^- \\*\\*Week of ${week ?? ''}:\\*\\* .+ \\(arXiv ${noted}\\) · 2 votes, voting closed at the deadline`,
      'm',
    ),
  );

  await a.context().close();
  await b.context().close();
});
