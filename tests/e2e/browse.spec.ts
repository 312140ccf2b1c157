import { resolve } from 'node:path';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { repoRoot } from '../src/paths.ts';

// Only the fields these tests read; the web app's own types live in web/src/lib/api/types.ts.
interface TopicSummary {
  slug: string;
  name: string;
  asOf: string;
  momentum: {
    last28: number;
    total: number;
    sentence: string;
    changePct: number | null;
    changeWithheld: 'before-first-listing' | 'fewer-listing-days' | null;
    /** null: a week before the store's first listing day ("no data", not 0). */
    weekly: { weekStart: string; count: number | null }[];
  };
  rising: { score: number; z: number; significant: boolean };
}
interface TopicDetail extends TopicSummary {
  paperIds: string[];
}
interface PaperView {
  id: string;
  title: string;
  links: { abs: string; pdf: string };
  tags: {
    slug: string;
    name: string;
    direct: boolean;
    depth: number;
    evidence: { rule: string; detail: string }[];
  }[];
}

const SLUG = 'rl-for-llm-agents';
const NAME = 'RL for LLM Agents';

/** The most topic chips a card or the paper view shows (web/src/lib/format/topic-chips.ts). */
const CHIP_LIMIT = 6;

const shot = (name: string): string => resolve(repoRoot, 'test-results', name);

async function getJson<T>(request: APIRequestContext, path: string): Promise<T> {
  const res = await request.get(path);
  expect(res.ok(), `${path} answered ${res.status()}`).toBe(true);
  return (await res.json()) as T;
}

/** The orders the directory promises, computed from the API's numbers. */
const byName = (a: TopicSummary, b: TopicSummary): number =>
  a.name.localeCompare(b.name, 'en', { sensitivity: 'base' });
const ORDERS: Record<string, (a: TopicSummary, b: TopicSummary) => number> = {
  Rising: (a, b) => b.rising.score - a.rising.score || b.rising.z - a.rising.z || byName(a, b),
  Largest: (a, b) => b.momentum.last28 - a.momentum.last28 || byName(a, b),
  'A–Z': byName,
};

/** "2026-03-16" → "Week of Mar 16", as the chart's table labels weeks. */
function weekLabel(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return `Week of ${date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })}`;
}

/** A row of topic chips: some, at most six, the first a tag the tagger gave rather than one it implies. */
async function expectChipRow(row: Locator): Promise<void> {
  const chips = row.getByTestId('topic-chip');
  const shown = await chips.count();
  expect(shown).toBeGreaterThan(0);
  expect(shown).toBeLessThanOrEqual(CHIP_LIMIT);
  await expect(chips.first()).toHaveAttribute('data-direct', 'true');
}

function topicNames(page: Page) {
  return page.getByTestId('topic-row').getByRole('link');
}

test('the directory lists every topic, and Rising, Largest and A–Z reorder them', async ({
  page,
  request,
}) => {
  const topics = await getJson<TopicSummary[]>(request, '/api/topics');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Topics', level: 1 })).toBeVisible();
  await expect(page.getByTestId('topic-row')).toHaveCount(topics.length);
  // Every row carries its sentence and a sparkline with an accessible name.
  const first = page.getByTestId('topic-row').first();
  await expect(first.getByRole('img')).toHaveAttribute('aria-label', /^Papers per week, /);

  for (const tab of ['Largest', 'A–Z', 'Rising']) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
    const expected = [...topics].sort(ORDERS[tab]).map((t) => t.name);
    await expect(topicNames(page)).toHaveText(expected);
  }
  const rising = await topicNames(page).allTextContents();
  await page.getByRole('tab', { name: 'Largest' }).click();
  expect(await topicNames(page).allTextContents()).not.toEqual(rising);
  await page.getByRole('tab', { name: 'Rising' }).click();
  // Rising is not by percentage, and the page says so.
  await expect(page.getByTestId('rising-why')).toContainText('not by percentage');
  await page.getByRole('tab', { name: 'Largest' }).click();
  await expect(page.getByTestId('rising-why')).toHaveCount(0);
  await page.getByRole('tab', { name: 'Rising' }).click();
  await page.screenshot({ path: shot('directory.png') });

  // "/" focuses the filter, which narrows the list as one types.
  await page.locator('body').click({ position: { x: 5, y: 300 } });
  await page.keyboard.press('/');
  const filter = page.getByRole('searchbox', { name: 'Filter topics by name' });
  await expect(filter).toBeFocused();
  await page.keyboard.type('rl for');
  await expect(topicNames(page)).toContainText([NAME]);
  const matching = topics.filter((t) => /\brl for/i.test(t.name)).length;
  await expect(page.getByTestId('topic-row')).toHaveCount(matching);
  await filter.fill('zzzz-nothing');
  await expect(page.getByText('No topic matches “zzzz-nothing”.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear the filter' }).click();
  await expect(page.getByTestId('topic-row')).toHaveCount(topics.length);

  // The taxonomy tree: broad topics first, narrower ones inside.
  await page.getByRole('tab', { name: 'Tree' }).click();
  const tree = page.getByRole('navigation', { name: 'Topic taxonomy' });
  await expect(tree.getByRole('link', { name: 'Reinforcement Learning', exact: true })).toBeVisible();
  await expect(tree.getByRole('link', { name: NAME, exact: true }).first()).toBeHidden();
  await tree
    .locator('summary', { hasText: /^Reinforcement Learning/ })
    .first()
    .click();
  // RL for LLM Agents sits under Agentic RL, inside Reinforcement Learning.
  await expect(tree.getByRole('link', { name: NAME, exact: true }).first()).toBeHidden();
  await tree
    .locator('summary', { hasText: /^Agentic RL/ })
    .first()
    .click();
  await expect(tree.getByRole('link', { name: NAME, exact: true }).first()).toBeVisible();

  // Coming back from a topic restores the chosen order.
  await page.getByRole('tab', { name: 'Largest' }).click();
  await page.getByRole('link', { name: NAME, exact: true }).click();
  await expect(page.getByRole('heading', { name: NAME, level: 1 })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('tab', { name: 'Largest' })).toHaveAttribute('aria-selected', 'true');
});

test('a topic page shows the API’s momentum, weekly counts and newest papers', async ({ page, request }) => {
  const topic = await getJson<TopicDetail>(request, `/api/topics/${SLUG}`);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  await page.getByRole('tab', { name: 'A–Z' }).click();
  await page.getByRole('link', { name: NAME, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/topics/${SLUG}$`));
  await expect(page.getByRole('heading', { name: NAME, level: 1 })).toBeVisible();
  await expect(page.getByText('RL: Reinforcement Learning · LLM: Large Language Model')).toBeVisible();

  await expect(page.getByTestId('momentum-sentence')).toHaveText(topic.momentum.sentence);
  await expect(page.getByTestId('topic-total')).toHaveText(
    `${topic.momentum.total.toLocaleString('en-US')} papers`,
  );

  // The chart's numbers, read from its table for screen readers.
  const table = page.getByRole('table', { name: `Papers per week in ${NAME}` });
  await expect(table.locator('tbody th')).toHaveText(
    topic.momentum.weekly.map((w) => weekLabel(w.weekStart)),
  );
  await expect(table.locator('tbody td')).toHaveText(
    topic.momentum.weekly.map((w) => (w.count === null ? 'no data' : w.count.toLocaleString('en-US'))),
  );

  // Newest first, a page at a time.
  const cards = page.getByTestId('paper-card');
  await expect(cards.first()).toHaveAttribute('data-paper-id', topic.paperIds[0] ?? 'none');
  await expect(cards).toHaveCount(Math.min(20, topic.paperIds.length));
  await expect(page.getByText(`Showing 20 of ${topic.paperIds.length} papers`)).toBeVisible();
  await page.getByRole('button', { name: /^Load \d+ more$/ }).click();
  await expect(cards).toHaveCount(Math.min(40, topic.paperIds.length));
  await expect(cards.nth(20)).toHaveAttribute('data-paper-id', topic.paperIds[20] ?? 'none');

  // Follow is remembered across a reload.
  await page.getByRole('button', { name: 'Follow this topic' }).click();
  await expect(page.getByRole('button', { name: 'Following' })).toHaveAttribute('aria-pressed', 'true');
  await page.reload();
  await expect(page.getByRole('button', { name: 'Following' })).toBeVisible();
  await page.screenshot({ path: shot('topic-light.png') });

  // Dark: from the system preference, then the toggle overrides it and is remembered.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByTestId('momentum-sentence')).toBeVisible();
  await page.screenshot({ path: shot('topic-dark.png') });
  await page.getByRole('button', { name: 'Dark theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.getByRole('button', { name: 'Dark theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.getByRole('button', { name: 'Following' }).click();
  await expect(page.getByRole('button', { name: 'Follow this topic' })).toBeVisible();
});

test('a paper view shows the API’s title, tags and evidence; back returns to the topic', async ({
  page,
  request,
}) => {
  const topic = await getJson<TopicDetail>(request, `/api/topics/${SLUG}`);
  const id = topic.paperIds[0] ?? '';
  const paper = await getJson<PaperView>(request, `/api/papers/${id}`);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/topics/${SLUG}`);
  await page.getByRole('button', { name: /^Load \d+ more$/ }).click();
  await expect(page.getByTestId('paper-card')).toHaveCount(Math.min(40, topic.paperIds.length));
  // Every card of the topic carries the topic, so each has chips; none says how many it left out.
  for (const card of await page.getByTestId('paper-card').all()) {
    await expectChipRow(card);
    await expect(card.getByTestId('more-topics')).toHaveCount(0);
  }
  const card = page.getByTestId('paper-card').first();
  await card.getByRole('heading').getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/papers/${id.replace('.', '\\.')}$`));

  await expect(page.getByTestId('paper-title')).toHaveText(paper.title);
  // The chips: at most six of the paper's tags, most specific first (direct before implied, deeper before
  // shallower), so none left out is more specific than one shown; "+N" leads to the full list below.
  const chipRow = page.getByTestId('topic-chips');
  await expectChipRow(chipRow);
  await expect(chipRow.getByTestId('topic-chip')).toHaveCount(Math.min(CHIP_LIMIT, paper.tags.length));
  const chipNames = await chipRow.getByTestId('topic-chip').allTextContents();
  const rank = (t: PaperView['tags'][number]): number => (t.direct ? 1000 : 0) + t.depth;
  const shownTags = chipNames.map((name) => paper.tags.find((t) => t.name === name));
  expect(shownTags.every((t) => t !== undefined)).toBe(true);
  const ranks = shownTags.map((t) => (t ? rank(t) : -1));
  expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
  const leftOut = paper.tags.filter((t) => !chipNames.includes(t.name));
  for (const t of leftOut) expect(rank(t)).toBeLessThanOrEqual(Math.min(...ranks));
  const more = page.getByTestId('more-topics');
  if (leftOut.length > 0) {
    await expect(more).toHaveText(`+${leftOut.length} more ${leftOut.length === 1 ? 'topic' : 'topics'}`);
    await expect(more).toHaveAttribute('href', '#why-heading');
  } else {
    await expect(more).toHaveCount(0);
  }
  await expect(page.getByRole('link', { name: 'Open paper (PDF)' })).toHaveAttribute('href', paper.links.pdf);
  await expect(page.getByRole('link', { name: 'arXiv', exact: true })).toHaveAttribute(
    'href',
    paper.links.abs,
  );

  // Why these topics: one entry per tag (every tag, however many chips show), each with its evidence.
  await expect(page.getByRole('heading', { name: 'Why these topics' })).toBeVisible();
  await expect(page.getByTestId('tag-evidence')).toHaveCount(paper.tags.length);
  for (const tag of paper.tags) {
    const evidence = page.getByRole('list', { name: `Evidence for ${tag.name}` });
    await expect(evidence.getByRole('listitem')).toHaveCount(tag.evidence.length);
    if (!tag.direct) await expect(evidence).toContainText('implied by');
  }
  // Related papers: the API's, in its order, each opening its own view.
  const related = await getJson<{ results: { id: string }[] }>(request, `/api/related/${id}`);
  expect(related.results.length).toBeGreaterThan(0);
  const relatedItems = page.getByTestId('related-papers').getByRole('listitem');
  await expect(relatedItems).toHaveCount(related.results.length);
  for (const [i, r] of related.results.entries()) {
    await expect(relatedItems.nth(i)).toHaveAttribute('data-paper-id', r.id);
  }
  await page.screenshot({ path: shot('paper-view.png'), fullPage: true });

  const next = related.results[0]?.id ?? '';
  await relatedItems.first().getByRole('link').first().click();
  await expect(page).toHaveURL(new RegExp(`/papers/${next.replace('.', '\\.')}$`));
  await expect(page.getByTestId('paper-title')).not.toHaveText(paper.title);
  await page.goBack();
  await expect(page.getByTestId('paper-title')).toHaveText(paper.title);

  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/topics/${SLUG}$`));
  await expect(page.getByRole('heading', { name: NAME, level: 1 })).toBeVisible();
  await expect(page.getByTestId('paper-card').first()).toHaveAttribute('data-paper-id', id);
  // As many papers as were shown before leaving.
  await expect(page.getByTestId('paper-card')).toHaveCount(Math.min(40, topic.paperIds.length));
});

test.describe(() => {
  // Routes do not see the requests of a page the service worker controls, and the worker, installed by the
  // first pages here, would take over at a moment of its own: the server's silence is staged without it.
  test.use({ serviceWorkers: 'block' });

  test('unknown topics and papers, and an unreachable server, say so clearly', async ({ page }) => {
    await page.goto('/topics/no-such-topic');
    await expect(page.getByRole('heading', { name: 'Topic not found', level: 1 })).toBeVisible();
    await expect(page.getByRole('alert')).toContainText('There is no topic "no-such-topic"');
    await page.getByRole('link', { name: 'Back to the topic directory' }).click();
    await expect(page.getByRole('heading', { name: 'Topics', level: 1 })).toBeVisible();

    await page.goto('/papers/2605.99999');
    await expect(page.getByRole('heading', { name: 'Not on this server yet', level: 1 })).toBeVisible();
    await expect(page.getByRole('alert')).toContainText(
      'Paper 2605.99999 has not been brought to this server yet',
    );

    await page.goto('/papers/not-an-id');
    await expect(page.getByRole('heading', { name: 'Not an arXiv identifier', level: 1 })).toBeVisible();
    await expect(page.getByRole('alert')).toContainText('"not-an-id" is not an arXiv identifier');

    // The app is loaded but its server stops answering.
    await page.goto('/');
    await page.route('**/api/topics/**', (route) => route.abort('connectionrefused'));
    await page.getByRole('link', { name: NAME, exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Cannot reach the server', level: 1 })).toBeVisible();
    await expect(page.getByRole('alert')).toContainText('Cannot reach the Quire server');
    await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
  });
});

test('the topic page fits a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(`/topics/${SLUG}`);
  await expect(page.getByTestId('paper-card').first()).toBeVisible();
  // Nothing wider than the screen (this runs in the page; the tests' tsconfig has no DOM types).
  const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: shot('topic-phone.png') });
  // Then the papers, further down. A wheel scroll could be shot before it was painted (a blank page): scroll
  // the first card into view and wait until the page has drawn it there.
  const card = page.getByTestId('paper-card').first();
  await card.scrollIntoViewIfNeeded();
  await expect(card).toBeInViewport();
  await expect(card.getByRole('heading').getByRole('link')).toBeVisible();
  await page.screenshot({ path: shot('topic-phone-papers.png') });
});

test('asking a topic quotes the API’s sentences, marks the matched words and cites each paper', async ({
  page,
  request,
}) => {
  const question = 'credit assignment across turns';
  const asked = await getJson<{ answers: { paperId: string; sentence: string }[] }>(
    request,
    `/api/topics/${SLUG}/ask?q=${encodeURIComponent(question)}`,
  );
  const first = asked.answers[0];
  expect(first, 'the API found an answer').toBeDefined();
  if (!first) return;

  await page.goto(`/topics/${SLUG}`);
  await expect(page.getByText('nothing is generated')).toBeVisible();
  await page.getByLabel('Your question').fill(question);
  await page.getByLabel('Your question').press('Enter');

  const answer = page.getByTestId('ask-answer').filter({
    has: page.getByTestId('ask-sentence').getByText(first.sentence, { exact: true }),
  });
  await expect(answer.first()).toBeVisible();
  await expect(answer.first().locator('mark').first()).toBeVisible();
  await expect(answer.first().getByRole('link')).toHaveAttribute('href', `/papers/${first.paperId}`);
});
