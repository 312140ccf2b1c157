/**
 * The pick list on a phone (390 px): while two members vote, every row keeps its place on both pages, so a
 * tap lands on the row it was aimed at. The voters' names beside a row (long names here) must not wrap onto
 * a new line and change the row's height, nor the vote button's label change its width.
 */
import { expect, test, type Page } from '@playwright/test';
import { candidate, createGroup, joinGroup, member, shot, syncState } from './support/group-ui.ts';

const SLUG = 'rl-for-llm-agents';
const PHONE = { width: 390, height: 844 };
const ADA = 'Alexandra Papadopoulou-Lindqvist';
const BEN = 'Benedikt Oberhauser-Wójcik';

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

/**
 * The candidates top to bottom, each with its top and height in the document (a tap scrolls the page to
 * the button first, so the viewport's coordinates would move without any row moving).
 */
async function candidatePlaces(page: Page): Promise<string[]> {
  // Runs in the page, as source text: the tests project has no DOM types.
  return page.evaluate<string[]>(`[...document.querySelectorAll('[data-testid="candidate"]')].map((row) => {
    const box = row.getBoundingClientRect();
    return row.dataset.paperId + ' @' + Math.round(box.top + window.scrollY) + '+' + Math.round(box.height);
  })`);
}

test('at 390 px the pick rows keep their place and height while both members vote', async ({ browser }) => {
  const a = await member(browser);
  const b = await member(browser);
  const { link, groupId } = await createGroup(a, '', ADA);
  await joinGroup(b, link, BEN);

  const [p1, p2, p3] = (await saveFromTopic(a, 3)) as [string, string, string];
  await a.goto(`/groups/${groupId}/queue`);
  for (const id of [p1, p2, p3]) {
    await a
      .locator(`[data-testid="queue-item"][data-paper-id="${id}"]`)
      .getByTestId('nominate-button')
      .click();
  }

  for (const page of [a, b]) {
    await page.setViewportSize(PHONE);
    await page.goto(`/groups/${groupId}/pick`);
    await expect(page.getByTestId('candidate')).toHaveCount(3);
    await expect(page.getByTestId('candidates')).toHaveAttribute('data-order', 'nominated');
    await expect(syncState(page)).toHaveAttribute('data-state', 'synced');
  }
  const placesA = await candidatePlaces(a);
  const placesB = await candidatePlaces(b);
  expect(placesA.map((p) => p.split(' ')[0])).toEqual([p1, p2, p3]);

  // Both vote for the middle row (both names beside it), then each for another; taken back once.
  const votes: [Page, string, string][] = [
    [a, p2, '1 vote'],
    [b, p2, '2 votes'],
    [b, p1, '1 vote'],
    [a, p3, '1 vote'],
    [a, p3, '0 votes'],
  ];
  for (const [voter, paperId, tally] of votes) {
    await candidate(voter, paperId).getByTestId('vote-button').click();
    for (const page of [a, b]) {
      await expect(candidate(page, paperId).getByTestId('approvals')).toHaveText(tally);
    }
    expect(await candidatePlaces(a)).toEqual(placesA);
    expect(await candidatePlaces(b)).toEqual(placesB);
  }
  // The names are still there to read, whole, in the tally's title.
  await expect(candidate(b, p2).getByTestId('voters')).toHaveAttribute('title', /^Votes from /);
  const title = (await candidate(b, p2).getByTestId('voters').getAttribute('title')) ?? '';
  expect(title.replace('Votes from ', '').split(', ').sort()).toEqual([ADA, 'you']);
  await a.screenshot({ path: shot('group-pick-phone.png'), fullPage: true });

  await a.context().close();
  await b.context().close();
});
