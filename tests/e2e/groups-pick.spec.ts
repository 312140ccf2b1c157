import ICAL from 'ical.js';
import { expect, test, type Page } from '@playwright/test';
import { createGroup, joinGroup, member, shot, syncState } from './support/group-ui.ts';

const SLUG = 'rl-for-llm-agents';
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** A member whose page runs on a clock the test moves (Playwright's page.clock), from the real now. */
async function memberWithClock(browser: Parameters<typeof member>[0]): Promise<Page> {
  const page = await member(browser);
  await page.clock.install();
  return page;
}

/** Saves the first `n` papers of a topic to the active group's queue with J and S; their ids in order. */
async function saveFromTopic(page: Page, n: number): Promise<string[]> {
  await page.goto(`/topics/${SLUG}`);
  const cards = page.getByTestId('paper-card');
  await expect(cards.nth(n - 1)).toBeVisible();
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    ids.push((await cards.nth(i).getAttribute('data-paper-id')) ?? '');
    await page.keyboard.press('j');
    await page.keyboard.press('s');
    await expect(cards.nth(i).getByTestId('save-button')).toHaveAttribute('aria-pressed', 'true');
  }
  return ids;
}

async function candidateIds(page: Page): Promise<string[]> {
  const rows = await page.getByTestId('candidate').all();
  return Promise.all(rows.map(async (row) => (await row.getAttribute('data-paper-id')) ?? ''));
}

const candidate = (page: Page, paperId: string) =>
  page.locator(`[data-testid="candidate"][data-paper-id="${paperId}"]`);

/** Moves the page's clock to `iso`, firing the timers due on the way (the pick's clock ticks). */
async function moveClockTo(page: Page, iso: string): Promise<void> {
  const pageNow = await page.evaluate(() => Date.now());
  await page.clock.fastForward(Date.parse(iso) - pageNow);
  // And one tick of the app's clock (every 5 s) after the jump.
  await page.clock.runFor(6_000);
}

test('both vote while the list stays in place; the deadline closes the week alike for both, and the calendar feed lists it', async ({
  browser,
}) => {
  const a = await memberWithClock(browser);
  const b = await memberWithClock(browser);
  const { link, groupId } = await createGroup(a);
  await joinGroup(b, link, 'Ben');

  // The group meets in two days at 12:00 UTC; voting closes 24 hours before (the default).
  const meetingDay = new Date(Date.now() + 2 * 86_400_000);
  const weekday = WEEKDAYS[(meetingDay.getUTCDay() + 6) % 7] ?? 'Monday';
  await a.goto(`/groups/${groupId}/meeting`);
  await expect(a.getByRole('tab', { name: 'Meeting' })).toHaveAttribute('aria-selected', 'true');
  await a.getByLabel('Every').selectOption({ label: weekday });
  await a.getByLabel('at', { exact: true }).fill('12:00');
  await a.getByLabel('time zone').fill('UTC');
  await a.getByRole('button', { name: 'Save meeting' }).click();
  await expect(a.getByTestId('meeting-summary')).toContainText(`Every ${weekday} at 12:00 (UTC)`);
  await expect(a.getByTestId('meeting').first().getByTestId('meeting-presenter')).toContainText(
    'Presenter: you',
  );

  // A queues three papers and nominates them in order.
  const [p1, p2, p3] = (await saveFromTopic(a, 3)) as [string, string, string];
  await a.goto(`/groups/${groupId}/queue`);
  for (const id of [p1, p2, p3]) {
    await a
      .locator(`[data-testid="queue-item"][data-paper-id="${id}"]`)
      .getByTestId('nominate-button')
      .click();
  }

  // "Go vote" is a link to the pick tab.
  await b.goto(`/groups/${groupId}/inbox`);
  await b.getByTestId('go-vote').click();
  await expect(b).toHaveURL(new RegExp(`/groups/${groupId}/pick$`));
  await expect(b.getByRole('tab', { name: 'Weekly pick' })).toHaveAttribute('aria-selected', 'true');
  await a.goto(`/groups/${groupId}/pick`);

  for (const page of [a, b]) {
    await expect(page.getByTestId('candidate')).toHaveCount(3);
    await expect.poll(() => candidateIds(page)).toEqual([p1, p2, p3]);
    // Nobody has voted: no leader is named with no votes.
    await expect(page.getByTestId('pick-no-votes')).toBeVisible();
    await expect(page.getByTestId('pick-winner')).toHaveCount(0);
  }

  // The list keeps the nomination order after every vote; the tally shows beside each row.
  await candidate(a, p3).getByTestId('vote-button').click();
  await expect(candidate(b, p3).getByTestId('approvals')).toHaveText('1 vote');
  await candidate(b, p2).getByTestId('vote-button').click();
  for (const page of [a, b]) {
    await expect(candidate(page, p2).getByTestId('approvals')).toHaveText('1 vote');
    // A tie is a tie, with the rule that decides it: p2 was nominated before p3.
    await expect(page.getByTestId('pick-tie')).toHaveAttribute('data-paper-ids', `${p2} ${p3}`);
    await expect(page.getByTestId('pick-tie')).toContainText('it was nominated first');
    await expect.poll(() => candidateIds(page)).toEqual([p1, p2, p3]);
  }
  await candidate(b, p3).getByTestId('vote-button').click();
  for (const page of [a, b]) {
    await expect(candidate(page, p3).getByTestId('approvals')).toHaveText('2 votes');
    await expect(page.getByTestId('pick-winner')).toHaveAttribute('data-paper-id', p3);
    await expect(page.getByTestId('candidates')).toHaveAttribute('data-order', 'nominated');
    await expect.poll(() => candidateIds(page)).toEqual([p1, p2, p3]);
  }
  await expect(b.getByTestId('my-votes')).toContainText('You have used 2 of 3 votes');

  // The deadline passes on both clocks: both show the same closed week and winner, ranked.
  const deadline = (await a.getByTestId('pick-deadline').getAttribute('data-deadline')) ?? '';
  expect(Date.parse(deadline)).toBe(
    Date.parse(`${meetingDay.toISOString().slice(0, 10)}T12:00:00Z`) - 86_400_000,
  );
  const afterDeadline = new Date(Date.parse(deadline) + 60_000).toISOString();
  await Promise.all([moveClockTo(a, afterDeadline), moveClockTo(b, afterDeadline)]);
  for (const page of [a, b]) {
    await expect(page.getByTestId('pick-status')).toHaveAttribute('data-phase', 'closed', {
      timeout: 15_000,
    });
    await expect(page.getByTestId('pick-winner')).toHaveAttribute('data-paper-id', p3);
    await expect(page.getByTestId('pick-winner')).toContainText('chosen when voting closed');
    await expect(page.getByTestId('candidates')).toHaveAttribute('data-order', 'ranked');
    await expect.poll(() => candidateIds(page)).toEqual([p3, p2, p1]);
    await expect(candidate(page, p1).getByTestId('vote-button')).toBeDisabled();
    await expect(syncState(page)).toHaveAttribute('data-state', 'synced', { timeout: 15_000 });
  }
  await expect(b.getByTestId('pick-announcement')).toHaveAttribute('data-paper-id', p3);
  await expect(b.getByTestId('pick-announcement')).toContainText('by Ada');
  await b.screenshot({ path: shot('group-pick-closed.png'), fullPage: true });

  // A pick row links to the paper's notes; going back shows the pick tab again.
  await candidate(b, p3).getByRole('link', { name: 'Notes' }).click();
  await expect(b).toHaveURL(new RegExp(`/groups/${groupId}/papers/${p3}$`));
  await b.goBack();
  await expect(b).toHaveURL(new RegExp(`/groups/${groupId}/pick$`));
  await expect(b.getByRole('tab', { name: 'Weekly pick' })).toHaveAttribute('aria-selected', 'true');

  // The calendar feed: a private link, fetched as a calendar app would, lists the meeting with the
  // winner and the presenter.
  await a.goto(`/groups/${groupId}/meeting`);
  await a.getByRole('button', { name: 'Create a calendar link' }).click();
  const feedUrl = await a.getByTestId('calendar-feed-url').inputValue();
  await a.screenshot({ path: shot('group-meeting.png'), fullPage: true });
  await a.setViewportSize({ width: 390, height: 844 });
  await a.screenshot({ path: shot('group-meeting-phone.png'), fullPage: true });
  expect(feedUrl).toMatch(/\/api\/calendar\/[\w-]{43}\.ics$/);
  const res = await a.request.get(feedUrl);
  expect(res.headers()['content-type']).toBe('text/calendar; charset=utf-8');
  const calendar = new ICAL.Component(ICAL.parse(await res.text()) as unknown[]);
  const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
  const meeting = events.find((e) =>
    e.startDate.toJSDate().toISOString().startsWith(meetingDay.toISOString().slice(0, 10)),
  );
  expect(meeting?.startDate.toJSDate().toISOString().slice(11, 16)).toBe('12:00');
  expect(meeting?.component.getFirstPropertyValue('x-quire-paper')).toBe(p3);
  expect(meeting?.description).toContain('Presenter: Ada');
  expect(meeting?.description).toContain(`https://arxiv.org/abs/${p3}`);
  expect(meeting?.summary).toMatch(/^Journal Club: /);

  await a.context().close();
  await b.context().close();
});
