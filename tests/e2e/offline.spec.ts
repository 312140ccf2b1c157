import { resolve } from 'node:path';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { repoRoot } from '../src/paths.ts';

const SLUG = 'rl-for-llm-agents';
const NAME = 'RL for LLM Agents';

// Only the fields these tests read.
interface TopicDetail {
  paperIds: string[];
  momentum: { sentence: string };
}
interface Paper {
  id: string;
  title: string;
  abstract: string;
}

interface Kept {
  topic: boolean;
  paper: boolean;
  papers: number;
}

const shot = (name: string): string => resolve(repoRoot, 'test-results', name);

async function getJson<T>(request: APIRequestContext, path: string): Promise<T> {
  const res = await request.get(path, { timeout: 120_000 });
  expect(res.ok(), `${path} answered ${res.status()}`).toBe(true);
  return (await res.json()) as T;
}

/** The longest word of the abstract whose search (on the server) lists the paper on the first page. */
async function distinctiveWord(request: APIRequestContext, paper: Paper): Promise<string> {
  const words = new Set((paper.abstract.match(/\b[A-Za-z]{8,}\b/g) ?? []).map((w) => w.toLowerCase()));
  for (const word of [...words].sort((a, b) => b.length - a.length || a.localeCompare(b))) {
    const found = await getJson<{ results: { id: string }[] }>(request, `/api/search?q=${word}`);
    if (found.results.some((r) => r.id === paper.id)) return word;
  }
  throw new Error(`No word of 8 letters or more in the abstract of ${paper.id} finds it.`);
}

/** One letter changed in the middle of the word, where typo tolerance must carry it. */
function withTypo(word: string): string {
  const at = Math.floor(word.length / 2);
  return word.slice(0, at) + (word.charAt(at) === 'x' ? 'z' : 'x') + word.slice(at + 1);
}

// These run in the page or the worker: the tests' tsconfig has no DOM types, so they are passed as strings.
const CONTROLLED = `navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller !== null)`;
const FETCH_PING = `fetch('/api/ping', { cache: 'no-store' }).then(() => 'answered', () => 'failed')`;
/** What the app has kept in IndexedDB; never creates the database (an upgrade is aborted). */
const keptScript = (slug: string, id: string) => `new Promise((resolve) => {
  const req = indexedDB.open('quire-offline');
  req.onupgradeneeded = () => req.transaction.abort();
  req.onerror = () => resolve(null);
  req.onsuccess = () => {
    const db = req.result;
    const tx = db.transaction(['topics', 'papers'], 'readonly');
    const topic = tx.objectStore('topics').get(${JSON.stringify(slug)});
    const paper = tx.objectStore('papers').get(${JSON.stringify(id)});
    const papers = tx.objectStore('papers').count();
    tx.oncomplete = () => {
      resolve({ topic: topic.result !== undefined, paper: paper.result !== undefined, papers: papers.result });
      db.close();
    };
  };
})`;

function resultFor(page: Page, id: string): Locator {
  return page.locator(`[data-testid="search-result"][data-paper-id="${id}"]`);
}

test('after one online visit, the app reloads offline: topic page, saved paper and search', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(180_000);
  const topic = await getJson<TopicDetail>(request, `/api/topics/${SLUG}`);
  const id = topic.paperIds[0] ?? '';
  const paper = await getJson<Paper>(request, `/api/papers/${id}`);
  const word = await distinctiveWord(request, paper);
  const box = page.getByRole('searchbox', { name: 'Search papers' });
  const cards = page.getByTestId('paper-card');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });

  // Online: the directory, where the service worker installs and takes control of the page.
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Topics', level: 1 })).toBeVisible();
  await expect.poll(() => page.evaluate<boolean>(CONTROLLED), { timeout: 30_000 }).toBe(true);

  // A topic page; its first paper saved with S, then opened.
  await page.getByRole('link', { name: NAME, exact: true }).first().click();
  await expect(page.getByRole('heading', { name: NAME, level: 1 })).toBeVisible();
  await expect(cards.first()).toHaveAttribute('data-paper-id', id);
  await page.keyboard.press('j');
  await expect(cards.first().getByRole('heading').getByRole('link')).toBeFocused();
  await page.keyboard.press('s');
  await expect(cards.first().getByTestId('save-button')).toHaveAttribute('aria-pressed', 'true');
  await cards.first().getByRole('heading').getByRole('link').click();
  await expect(page.getByTestId('paper-title')).toHaveText(paper.title);

  // A search, answered by the server.
  await box.fill(word);
  await expect(resultFor(page, id)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('search-offline')).toHaveCount(0);
  await expect(page.getByTestId('offline-indicator')).toHaveCount(0);

  // The device has kept the topic and its first page of papers (written in the background).
  const firstPage = Math.min(20, topic.paperIds.length);
  await expect
    .poll(() => page.evaluate<Kept | null>(keptScript(SLUG, id)))
    .toMatchObject({ topic: true, paper: true });
  const kept = await page.evaluate<Kept | null>(keptScript(SLUG, id));
  expect(kept?.papers).toBeGreaterThanOrEqual(firstPage);

  // Offline. setOffline must cut the service worker off too, or a reload could be answered by the network
  // through the worker and prove nothing: check that the worker's own fetches now fail.
  await page.goto(`/topics/${SLUG}`);
  await expect(cards.first()).toBeVisible();
  await context.setOffline(true);
  const worker = context.serviceWorkers()[0];
  expect(worker, 'a service worker is running').toBeDefined();
  expect(await worker?.evaluate<string>(FETCH_PING)).toBe('failed');
  expect(await page.evaluate<string>(FETCH_PING)).toBe('failed');

  // The topic page reloads from the worker's shell and the device's data.
  const reloaded = await page.reload();
  expect(reloaded?.fromServiceWorker()).toBe(true);
  await expect(page.getByRole('heading', { name: NAME, level: 1 })).toBeVisible();
  await expect(page.getByTestId('momentum-sentence')).toHaveText(topic.momentum.sentence);
  await expect(cards).toHaveCount(firstPage);
  await expect(cards.first()).toHaveAttribute('data-paper-id', id);
  const indicator = page.getByRole('status').filter({ has: page.getByTestId('offline-indicator') });
  await expect(indicator).toBeVisible();
  await expect(indicator).toHaveText(/^\s*Offline — showing data from (a moment|\d+ minutes?) ago$/);
  await expect(page.getByTestId('data-age')).toContainText(/^Saved (a moment|\d+ minutes?) ago/);
  await page.screenshot({ path: shot('topic-offline.png') });

  // The saved paper: listed, and its view opens (full record, from the device).
  await page.getByRole('link', { name: /^Saved/ }).click();
  const saved = page.getByTestId('saved-paper');
  await expect(saved).toHaveCount(1);
  await saved.getByRole('link').click();
  await expect(page.getByTestId('paper-title')).toHaveText(paper.title);
  await expect(page.getByRole('heading', { name: 'Why these topics' })).toBeVisible();
  // And on its own, by address, after a reload.
  await page.reload();
  await expect(page.getByTestId('paper-title')).toHaveText(paper.title);
  await expect(page.getByTestId('offline-indicator')).toBeVisible();

  // Search runs over the offline index, with the same syntax: a word of the abstract, then with a typo.
  await box.fill(word);
  await expect(page).toHaveURL(new RegExp(`/search\\?q=${word}$`));
  await expect(page.getByTestId('search-offline')).toContainText(
    /The server cannot be reached: searching the \d+ papers held offline/,
  );
  await expect(resultFor(page, id)).toBeVisible();
  await expect(resultFor(page, id).locator('mark').first()).toBeVisible();
  const typo = withTypo(word);
  await box.fill(typo);
  await expect(page).toHaveURL(new RegExp(`/search\\?q=${typo}$`));
  await expect(resultFor(page, id)).toBeVisible();
  await page.screenshot({ path: shot('search-offline.png') });

  // Back online, the server answers again and the indicator goes.
  await context.setOffline(false);
  await page.reload();
  await expect(resultFor(page, id)).toBeVisible();
  await expect(page.getByTestId('search-offline')).toHaveCount(0);
  await expect(page.getByTestId('offline-indicator')).toHaveCount(0);
});

test('offline, a topic never visited says the server cannot be reached', async ({ page, context }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Topics', level: 1 })).toBeVisible();
  await expect.poll(() => page.evaluate<boolean>(CONTROLLED), { timeout: 30_000 }).toBe(true);
  await context.setOffline(true);
  await page.goto(`/topics/${SLUG}`);
  await expect(page.getByRole('heading', { name: 'Cannot reach the server', level: 1 })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('Cannot reach the Quire server');
  await expect(page.getByTestId('offline-indicator')).toBeVisible();
});

test('the offline shell is installed only after the first page has asked for its files', async ({
  page,
  context,
}) => {
  // The worker's install fetches the whole build over the page's connections; each request in the order the
  // browser made it, the worker's apart from the page's.
  const order: { fromWorker: boolean; path: string }[] = [];
  context.on('request', (request) => {
    order.push({ fromWorker: request.serviceWorker() !== null, path: new URL(request.url()).pathname });
  });
  await page.goto(`/topics/${SLUG}`);
  await expect(page.getByTestId('momentum-sentence')).toHaveText(/\S/);
  await expect.poll(() => page.evaluate<boolean>(CONTROLLED), { timeout: 30_000 }).toBe(true);

  const firstFromWorker = order.findIndex((r) => r.fromWorker);
  expect(firstFromWorker, 'the worker fetched the build').toBeGreaterThan(0);
  const pageFiles = order.flatMap((r, i) => (!r.fromWorker && r.path.startsWith('/_app/') ? [i] : []));
  expect(pageFiles.length).toBeGreaterThan(0);
  expect(Math.max(...pageFiles), 'the page had asked for every file it runs first').toBeLessThan(
    firstFromWorker,
  );
});
