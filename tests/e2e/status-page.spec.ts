import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { listingsDir } from '../src/paths.ts';

interface Manifest {
  window: { first: string; last: string };
  files: Record<string, { records: number }>;
}

const manifest = JSON.parse(readFileSync(resolve(listingsDir, 'MANIFEST.json'), 'utf8')) as Manifest;
const corpusPapers = Object.values(manifest.files).reduce((sum, f) => sum + f.records, 0);

test('the status page shows the stored papers and the harvest state', async ({ page }) => {
  await page.goto('/status');
  await expect(page.getByRole('heading', { name: 'Status', level: 1 })).toBeVisible();
  await expect(page.getByTestId('paper-count')).toHaveText(`${corpusPapers.toLocaleString('en-US')} papers`);
  await expect(page.getByTestId('first-listing')).toHaveText(manifest.window.first);
  await expect(page.getByTestId('last-listing')).toHaveText(manifest.window.last);
  await expect(page.getByTestId('harvest-status')).toHaveText('Background harvest off');
  await expect(page.getByRole('table', { name: 'Papers by primary category' })).toContainText('cs.CV');
  await page.screenshot({ path: 'test-results/status-page.png', fullPage: true });
});

test('client-side routes fall back to the app and unknown API paths answer JSON 404', async ({
  page,
  request,
}) => {
  const res = await request.get('/api/no-such-thing');
  expect(res.status()).toBe(404);
  expect(((await res.json()) as { error: string }).error).toBe('not-found');
  // The server answers unknown paths with the app shell; the app itself says the page does not exist.
  const shell = await request.get('/some/client/route');
  expect(shell.status()).toBe(200);
  expect(shell.headers()['content-type']).toContain('text/html');
  await page.goto('/some/client/route');
  await expect(page.getByRole('heading', { name: 'Page not found', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Back to the topic directory' }).click();
  await expect(page.getByRole('heading', { name: 'Topics', level: 1 })).toBeVisible();
});
