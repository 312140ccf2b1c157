/**
 * `/` on a phone (390 px), where the header's search box is folded behind an icon: it opens the box and puts
 * the focus in it, once (no "/" typed, no second press needed), and on the directory it still means the
 * topic filter, leaving the header's search closed.
 */
import { expect, test } from '@playwright/test';

const PHONE = { width: 390, height: 844 };

test('/ opens the folded search box and focuses it; Esc closes it; / opens it again', async ({ browser }) => {
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  await page.goto('/saved');
  const toggle = page.getByTestId('search-toggle');
  const box = page.locator('#header-search');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(box).toBeHidden();

  await page.keyboard.press('/');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(box).toBeVisible();
  await expect(box).toBeFocused();
  await expect(box).toHaveValue('');

  await page.keyboard.press('Escape');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(box).toBeHidden();
  await page.keyboard.press('/');
  await expect(box).toBeFocused();
  await expect(box).toHaveValue('');
  // In the box, "/" is text like any other.
  await page.keyboard.type('a/b');
  await expect(box).toHaveValue('a/b');
  await context.close();
});

test('/ on the directory at 390 px focuses the topic filter and leaves the header search closed', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  await page.goto('/');
  const filter = page.locator('#topic-filter');
  await expect(filter).toBeVisible();
  await page.keyboard.press('/');
  await expect(filter).toBeFocused();
  await expect(filter).toHaveValue('');
  await expect(page.getByTestId('search-toggle')).toHaveAttribute('aria-expanded', 'false');
  await context.close();
});
