import { expect, test, type Request } from '@playwright/test';

const SLUG = 'rl-for-llm-agents';

/**
 * The topic page's code comes in a few files (web/src/bundling/route-chunks.ts): the app's shell, named in the
 * page for preloading, then the topic page's own file and what the pages share. Split as the bundler chose,
 * the page asked for 39 scripts (main, 7 December), 21 of them only once the app had started, each a request
 * the browser, the server and the page pay for.
 */
test('a topic page asks for few scripts, most of them named in the page before the app starts', async ({
  page,
}) => {
  const scripts: Request[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request);
  });
  await page.goto(`/topics/${SLUG}`);
  await expect(page.getByTestId('momentum-sentence')).toHaveText(/\S/);

  const html = await (await page.request.get(`/topics/${SLUG}`)).text();
  const preloaded = new Set(
    [...html.matchAll(/<link href="([^"]+\.js)" rel="modulepreload"/g)].map(
      ([, href]) => new URL(href ?? '', page.url()).pathname,
    ),
  );
  const late = scripts.map((r) => new URL(r.url()).pathname).filter((path) => !preloaded.has(path));
  // The root layout's and the topic page's own files, and what the pages share.
  expect(late.length, late.join('\n')).toBeLessThanOrEqual(3);
  expect(scripts.length, scripts.map((r) => r.url()).join('\n')).toBeLessThanOrEqual(8);
});
