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
