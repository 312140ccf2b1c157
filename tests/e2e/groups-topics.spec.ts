import { expect, test, type APIRequestContext, type Locator } from '@playwright/test';
import { createGroup, GROUP, member, openTab, shot } from './support/group-ui.ts';

const TOPIC = 'Our phrase topic';
/** Topics of the directory whose newest titles the phrase is picked from. */
const SOURCE_TOPICS = 4;

// Only the fields this test reads.
interface TopicSummary {
  slug: string;
}
interface TopicDetail {
  paperIds: string[];
}
interface Paper {
  id: string;
  title: string;
  abstract: string;
  listingDate: string | null;
}
interface SearchResponse {
  total: number;
}

async function getJson<T>(request: APIRequestContext, path: string): Promise<T> {
  const res = await request.get(path, { timeout: 120_000 });
  expect(res.ok(), `${path} answered ${res.status()}`).toBe(true);
  return (await res.json()) as T;
}

/**
 * The phrase's words in order, each perhaps with a plural "s" (the tagging engine reads "models" as
 * "model"), in text lower-cased with everything but letters and digits read as a space.
 */
function containsPhrase(text: string, phrase: string): boolean {
  const plain = ` ${text.toLowerCase().replace(/[^a-z0-9]+/g, ' ')} `;
  const words = phrase.split(' ').map((w) => `${w}s?`);
  return new RegExp(` ${words.join(' ')} `).test(plain);
}

/**
 * Three plain words in a row from a title, lower-cased: letters only (a capital first at most), four or
 * more, none ending in s or y (whose plural forms the engine folds).
 */
function titlePhrases(title: string): string[] {
  const words = title.split(/\s+/);
  const plain = (w: string | undefined): w is string =>
    w !== undefined && /^[A-Za-z][a-z]{3,}$/.test(w) && !/[sy]$/.test(w);
  const phrases: string[] = [];
  for (let i = 0; i + 2 < words.length; i++) {
    const run = [words[i], words[i + 1], words[i + 2]];
    if (run.every(plain)) phrases.push(run.join(' ').toLowerCase());
  }
  return phrases;
}

/**
 * A phrase from the corpus, chosen at run time: three words of a recent title that the server's search
 * finds in a few papers (at least two, so the inbox keeps one after the save; at most 40, so every match
 * shows and is checked).
 */
async function pickPhrase(request: APIRequestContext): Promise<{ phrase: string; paper: Paper }> {
  const topics = await getJson<TopicSummary[]>(request, '/api/topics');
  for (const { slug } of topics.slice(0, SOURCE_TOPICS)) {
    const topic = await getJson<TopicDetail>(request, `/api/topics/${slug}`);
    const ids = topic.paperIds.slice(0, 30).join(',');
    const { papers } = await getJson<{ papers: Paper[] }>(request, `/api/papers?ids=${ids}`);
    for (const paper of papers) {
      for (const phrase of titlePhrases(paper.title)) {
        const q = encodeURIComponent(`"${phrase}"`);
        const found = await getJson<SearchResponse>(request, `/api/search?q=${q}&limit=1`);
        if (found.total >= 2 && found.total <= 40) return { phrase, paper };
      }
    }
  }
  throw new Error('No title of the first topics has three plain words that a few papers share.');
}

test('a group defines its own topic, sees the papers it matches and saves one', async ({
  browser,
  request,
}) => {
  const { phrase, paper } = await pickPhrase(request);
  const a = await member(browser);
  const r = await member(browser);

  // A creates the group; Rita joins from the read-only invite and watches the Topics tab.
  const { readOnlyLink, groupId } = await createGroup(a);
  await r.goto(readOnlyLink);
  await r.getByLabel('Your name in the group').fill('Rita');
  await r.getByRole('button', { name: 'Join group' }).click();
  await expect(r.getByRole('main').getByTestId('sync-state')).toHaveAttribute('data-state', 'synced');
  await openTab(r, 'Topics');

  // A defines the topic by the phrase; its matching papers show at once.
  await a.goto(`/groups/${groupId}`);
  await openTab(a, 'Topics');
  await a.getByLabel('Topic name', { exact: true }).fill(TOPIC);
  await a.getByLabel('Phrases', { exact: true }).fill(phrase);
  await a.getByRole('button', { name: 'Create topic' }).click();
  const matches = a.getByTestId('custom-topic-matches');
  await expect(matches).toContainText('searches the server’s store');
  await expect(a.getByTestId('matches-status')).toContainText('newest first');
  const match = (id: string): Locator => a.locator(`[data-testid="topic-match"][data-paper-id="${id}"]`);
  await expect(match(paper.id).getByTestId('match-evidence')).toContainText(`“${phrase}” in the title`);

  // Every paper listed holds the phrase, by the server's own text, and the newest come first.
  const ids: string[] = [];
  for (const item of await a.getByTestId('topic-match').all()) {
    ids.push((await item.getAttribute('data-paper-id')) ?? '');
  }
  expect(ids.length).toBeGreaterThanOrEqual(2);
  const { papers } = await getJson<{ papers: Paper[] }>(request, `/api/papers?ids=${ids.join(',')}`);
  expect(papers.map((p) => p.id)).toEqual(ids);
  for (const p of papers) {
    expect(
      containsPhrase(p.title, phrase) || containsPhrase(p.abstract, phrase),
      `${p.id} lacks “${phrase}”`,
    ).toBe(true);
  }
  const dates = papers.map((p) => p.listingDate ?? '');
  expect(dates).toEqual([...dates].sort().reverse());
  await a.screenshot({ path: shot('group-topics.png'), fullPage: true });

  // The topic is followed, so its papers reach the inbox, which says what brought them.
  await openTab(a, 'Inbox');
  await expect(a.locator(`[data-testid="inbox-item"][data-paper-id="${paper.id}"]`)).toContainText(
    `in ${TOPIC}`,
  );

  // J and S on the matching papers save the newest to the queue.
  await openTab(a, 'Topics');
  await a.getByTestId('custom-topic').getByTestId('show-matches').click();
  const newest = ids[0] ?? '';
  await expect(match(newest)).toBeVisible();
  await a.keyboard.press('j');
  await a.keyboard.press('s');
  await expect(match(newest).getByTestId('save-button')).toHaveText(`Saved to ${GROUP}`);
  await openTab(a, 'Queue');
  await expect(a.locator(`[data-testid="queue-item"][data-paper-id="${newest}"]`)).toBeVisible();

  // Rita sees the topic, who made it and its phrase, without the controls to change it.
  const topicR = r.getByTestId('custom-topic');
  await expect(topicR.getByRole('heading', { name: TOPIC })).toBeVisible();
  await expect(topicR.getByTestId('custom-topic-created')).toContainText('Created by Ada');
  await expect(topicR.getByTestId('custom-topic-phrases')).toContainText(phrase);
  await expect(topicR.getByRole('button', { name: 'Delete topic' })).toHaveCount(0);
  await expect(r.getByTestId('custom-topic-form')).toHaveCount(0);

  await a.context().close();
  await r.context().close();
});
