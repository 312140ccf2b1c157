import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createGroup, expectSynced } from './support/group-ui.ts';

const SLUG = 'rl-for-llm-agents';

interface TopicDetail {
  paperIds: string[];
}

/** What the page reports breaking its policy: securitypolicyviolation events and the console's CSP errors. */
interface Violations {
  list(): Promise<string[]>;
}

async function watchViolations(page: Page): Promise<Violations> {
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /content security policy/i.test(message.text())) {
      consoleErrors.push(message.text());
    }
  });
  // Before any of the page's own scripts, so a violation during boot is seen too. Browser code is a string:
  // the tests are typed without the DOM library.
  await page.addInitScript(`
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.cspViolations.push(e.effectiveDirective + ' blocked ' + (e.blockedURI || '(inline)'));
    });
  `);
  return {
    async list() {
      const events = await page.evaluate<string[]>('window.cspViolations ?? []');
      return [...events, ...consoleErrors];
    },
  };
}

/** Opens a page and checks the headers of its document and that the header policy is the page's own. */
async function open(page: Page, path: string): Promise<void> {
  const res = await page.goto(path);
  if (!res) throw new Error(`${path} gave no document response`);
  expect(res.status(), path).toBe(200);
  const headers = res.headers();
  expect(headers['x-content-type-options'], path).toBe('nosniff');
  expect(headers['referrer-policy'], path).toBe('no-referrer');
  const meta = await page.locator('meta[http-equiv="content-security-policy"]').getAttribute('content');
  // The inline theme script is allowed by its hash; no script by a blanket 'unsafe-inline'.
  expect(meta, path).toMatch(/script-src 'self'( 'sha256-[\w+/=]+')+;/);
  expect(headers['content-security-policy'], path).toBe(`${meta}; frame-ancestors 'none'`);
}

async function firstPaperOf(request: APIRequestContext, slug: string): Promise<string> {
  const res = await request.get(`/api/topics/${slug}`);
  expect(res.ok()).toBe(true);
  const id = ((await res.json()) as TopicDetail).paperIds[0];
  expect(id).toBeDefined();
  return id ?? '';
}

test('the directory, a topic, a paper, search and groups work under the policy, with no violation', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const violations = await watchViolations(page);
  const paperId = await firstPaperOf(request, SLUG);

  await open(page, '/');
  await expect(page.getByTestId('topic-row').first()).toBeVisible();
  // The inline theme script ran: it is what sets data-theme before the app starts.
  await expect(page.locator('html')).toHaveAttribute('data-theme', /^(light|dark)$/);
  expect(await violations.list()).toEqual([]);

  await open(page, `/topics/${SLUG}`);
  await expect(page.getByTestId('paper-card').first()).toBeVisible();
  await expect(page.getByTestId('paper-card').first()).toHaveAttribute('data-paper-id', paperId);
  expect(await violations.list()).toEqual([]);

  await open(page, `/papers/${paperId}`);
  await expect(page.getByTestId('paper-title')).not.toBeEmpty();
  expect(await violations.list()).toEqual([]);

  // Search answers from the API, typed into the header box.
  await page.getByRole('searchbox', { name: 'Search papers' }).fill('reinforcement learning');
  await expect(page).toHaveURL(/\/search\?q=/);
  await expect(page.getByTestId('search-result').first()).toBeVisible({ timeout: 60_000 });
  expect(await violations.list()).toEqual([]);

  // A group: the sync websocket and IndexedDB, on the same origin.
  await open(page, '/groups');
  const { groupId } = await createGroup(page);
  await page.goto(`/groups/${groupId}`);
  await expectSynced(page);
  // The service worker has taken this page over and fetches under its own (the same) policy.
  expect(await page.evaluate<boolean>('navigator.serviceWorker.ready.then((r) => r.active !== null)')).toBe(
    true,
  );
  expect(await violations.list()).toEqual([]);
});

test('the policy is enforced: a script injected into the page does not run, and is reported', async ({
  page,
}) => {
  const violations = await watchViolations(page);
  await open(page, '/');
  await expect(page.getByTestId('topic-row').first()).toBeVisible();
  const ran = await page.evaluate<boolean>(`new Promise((resolve) => {
    document.addEventListener('securitypolicyviolation', () => resolve(window.injectedRan === true), {
      once: true,
    });
    const script = document.createElement('script');
    script.textContent = 'window.injectedRan = true;';
    document.head.append(script);
  })`);
  expect(ran).toBe(false);
  expect((await violations.list()).some((v) => v.startsWith('script-src'))).toBe(true);
});
