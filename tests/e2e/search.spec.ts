import { resolve } from 'node:path';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { repoRoot } from '../src/paths.ts';

const SLUG = '3d-gaussian-splatting';

// Only the fields these tests read.
interface TopicDetail {
  paperIds: string[];
}
interface Paper {
  id: string;
  title: string;
  abstract: string;
  authors: { name: string }[];
}
interface SearchResponse {
  total: number;
  results: { id: string }[];
}

async function getJson<T>(request: APIRequestContext, path: string): Promise<T> {
  const res = await request.get(path, { timeout: 120_000 });
  expect(res.ok(), `${path} answered ${res.status()}`).toBe(true);
  return (await res.json()) as T;
}

/** The paper the tests look for: the newest of a topic. */
async function pickPaper(request: APIRequestContext): Promise<Paper> {
  const topic = await getJson<TopicDetail>(request, `/api/topics/${SLUG}`);
  const id = topic.paperIds[0];
  expect(id).toBeDefined();
  return getJson<Paper>(request, `/api/papers/${id}`);
}

/** Long words of the abstract, longest first: rare enough to find the paper among the first results. */
function longWords(abstract: string): string[] {
  const words = new Set((abstract.match(/\b[A-Za-z]{9,}\b/g) ?? []).map((w) => w.toLowerCase()));
  return [...words].sort((a, b) => b.length - a.length || a.localeCompare(b));
}

/** The longest word of the abstract whose search lists the paper on the first page. */
async function distinctiveWord(request: APIRequestContext, paper: Paper): Promise<string> {
  for (const word of longWords(paper.abstract)) {
    const found = await getJson<SearchResponse>(request, `/api/search?q=${encodeURIComponent(word)}`);
    if (found.results.some((r) => r.id === paper.id)) return word;
  }
  throw new Error(`No word of 9 letters or more in the abstract of ${paper.id} finds it.`);
}

/** One letter changed, in the middle of the word (where typo tolerance must carry it). */
function withTypo(word: string): string {
  const at = Math.floor(word.length / 2);
  const letter = word.charAt(at) === 'x' ? 'z' : 'x';
  return word.slice(0, at) + letter + word.slice(at + 1);
}

function resultFor(page: Page, id: string): Locator {
  return page.locator(`[data-testid="search-result"][data-paper-id="${id}"]`);
}

test('the header box finds a paper by a word of its abstract, with a typo, and by its author', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const paper = await pickPaper(request);
  const word = await distinctiveWord(request, paper);
  const box = page.getByRole('searchbox', { name: 'Search papers' });

  // `/` focuses the header box (outside the directory, whose topic filter takes `/`).
  await page.goto('/saved');
  await page.locator('body').click({ position: { x: 5, y: 300 } });
  await page.keyboard.press('/');
  await expect(box).toBeFocused();

  // Typing goes to the search page, with results as one types.
  await page.keyboard.type(word);
  await expect(page).toHaveURL(new RegExp(`/search\\?q=${word}$`));
  const hit = resultFor(page, paper.id);
  await expect(hit).toBeVisible({ timeout: 60_000 });
  await expect(hit.locator('mark').first()).toBeVisible();
  await expect(page.getByTestId('search-total')).toContainText('paper');
  await page.screenshot({ path: resolve(repoRoot, 'test-results', 'search.png') });

  // The title links to the paper; Back returns to the same query and its results.
  await hit.getByRole('heading').getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/papers/${paper.id.replace('.', '\\.')}$`));
  await page.goBack();
  await expect(box).toHaveValue(word);
  await expect(resultFor(page, paper.id)).toBeVisible();

  // A typo still finds it.
  const typo = withTypo(word);
  await box.fill(typo);
  await expect(page).toHaveURL(new RegExp(`/search\\?q=${typo}$`));
  await expect(resultFor(page, paper.id)).toBeVisible();

  // And a reload keeps the query.
  await page.reload();
  await expect(box).toHaveValue(typo);
  await expect(resultFor(page, paper.id)).toBeVisible();

  // By its first author, as a removable chip.
  const author = paper.authors[0]?.name ?? '';
  expect(author).not.toBe('');
  await box.fill(`author:"${author}"`);
  await expect(page.getByTestId('search-chip')).toContainText(author);
  await expect(resultFor(page, paper.id)).toBeVisible();
  await page.getByRole('button', { name: `Remove author ${author}` }).click();
  await expect(box).toHaveValue('');
  await expect(page.getByTestId('search-empty')).toBeVisible();
});

test('a bad filter shows the server’s message', async ({ page, request }) => {
  const res = await request.get('/api/search?q=from:2026-13-45', { timeout: 120_000 });
  expect(res.status()).toBe(400);
  const { message } = (await res.json()) as { message: string };

  await page.goto('/search');
  const box = page.getByRole('searchbox', { name: 'Search papers' });
  await box.fill('from:2026-13-45');
  const error = page.getByTestId('search-error');
  await expect(error).toBeVisible();
  await expect(error).toContainText(message);
  await expect(page.getByTestId('search-result')).toHaveCount(0);
});

interface SearchAnswer {
  total: number;
  results: { id: string; authorMatch?: string }[];
}

test('an arXiv id or address goes to its paper; one this server lacks is offered from arXiv', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const paper = await pickPaper(request);
  const box = page.getByRole('searchbox', { name: 'Search papers' });

  // Typed, the search page shows the paper alone with a way to it; Enter opens it.
  await page.goto('/saved');
  await box.fill(paper.id);
  await expect(page.getByTestId('search-go-to-paper')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('search-result')).toHaveCount(1);
  await expect(resultFor(page, paper.id)).toBeVisible();
  await box.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/papers/${paper.id.replace('.', '\\.')}$`));

  // A pasted abs address, Enter in the header box: straight to the paper.
  await page.goto('/saved');
  await box.fill(`https://arxiv.org/abs/${paper.id}v2`);
  await box.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/papers/${paper.id.replace('.', '\\.')}$`));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  // An id the server lacks: said so, with the fetch offered, which asks the server to fetch it (arXiv
  // itself is out of reach here: fetch-on-demand.test.ts follows the fetch through the replay server).
  const missing = '2605.99999';
  await page.goto('/search');
  await box.fill(`arXiv:${missing}`);
  const offer = page.getByTestId('search-exact-missing');
  await expect(offer).toContainText(`Paper ${missing} is not on this server`);
  await expect(page.getByTestId('search-result')).toHaveCount(0);
  const asked = page.waitForRequest((r) => r.url().endsWith(`/api/papers/${missing}?fetch=1`));
  await offer.getByRole('button', { name: 'Fetch it from arXiv' }).click();
  await asked;
  await expect(offer.getByRole('button', { name: 'Fetching…' })).toBeDisabled();
});

test("a person's name lists that person's papers first, naming the author", async ({ page, request }) => {
  const answer = await getJson<SearchAnswer>(request, `/api/search?q=${encodeURIComponent('Ying Wen')}`);
  const theirs = answer.results.filter((r) => r.authorMatch === 'Ying Wen').map((r) => r.id);
  expect(theirs.length).toBeGreaterThan(0);

  await page.goto('/search?q=Ying+Wen');
  await expect(page.getByTestId('search-by-author')).toContainText('Ying Wen');
  const results = page.getByTestId('search-result');
  await expect(results.first()).toBeVisible();
  for (const [i, id] of theirs.entries()) await expect(results.nth(i)).toHaveAttribute('data-paper-id', id);
  await expect(resultFor(page, theirs[0]!).getByTestId('search-author-match')).toHaveText('Author: Ying Wen');
  await expect(results.first()).not.toContainText('King Wen');
});

test('the newest/relevance toggle reorders the results and stays in the address', async ({
  page,
  request,
}) => {
  const newest = await getJson<SearchAnswer>(request, '/api/search?q=diffusion&sort=newest');
  const relevant = await getJson<SearchAnswer>(request, '/api/search?q=diffusion');
  expect(newest.results[0]?.id).not.toBe(relevant.results[0]?.id);

  await page.goto('/search?q=diffusion');
  const first = page.getByTestId('search-result').first();
  await expect(first).toHaveAttribute('data-paper-id', relevant.results[0]!.id);
  const toggle = page.getByRole('group', { name: 'Order of the results' });
  await expect(toggle.getByRole('button', { name: 'Most relevant' })).toHaveAttribute('aria-pressed', 'true');

  await toggle.getByRole('button', { name: 'Newest' }).click();
  await expect(page).toHaveURL(/\/search\?q=diffusion&sort=newest$/);
  await expect(first).toHaveAttribute('data-paper-id', newest.results[0]!.id);

  await page.reload();
  await expect(toggle.getByRole('button', { name: 'Newest' })).toHaveAttribute('aria-pressed', 'true');
  await expect(first).toHaveAttribute('data-paper-id', newest.results[0]!.id);

  await toggle.getByRole('button', { name: 'Most relevant' }).click();
  await expect(page).toHaveURL(/\/search\?q=diffusion$/);
  await expect(first).toHaveAttribute('data-paper-id', relevant.results[0]!.id);
});

test('the topic chip names the topic', async ({ page, request }) => {
  const topics = await getJson<{ slug: string; name: string }[]>(request, '/api/topics');
  const name = topics.find((t) => t.slug === SLUG)?.name ?? '';
  expect(name).not.toBe('');
  expect(name).not.toBe(SLUG);

  await page.goto(`/search?q=${encodeURIComponent(`topic:${SLUG}`)}`);
  const chip = page.getByTestId('search-chip');
  await expect(chip).toContainText(`Topic: ${name}`);
  await expect(chip).not.toContainText(SLUG);
  await page.getByRole('button', { name: `Remove topic ${name}` }).click();
  await expect(page.getByTestId('search-chip')).toHaveCount(0);
});
