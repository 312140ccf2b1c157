import { resolve } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { repoRoot } from '../src/paths.ts';

const SLUG = 'rl-for-llm-agents';

const shot = (name: string): string => resolve(repoRoot, 'test-results', name);

// These run in the page: the tests' tsconfig has no DOM types, so they are passed as strings.
const ACTIVE_TEXT = "(document.activeElement?.textContent ?? '').replace(/\\s+/g, ' ').trim()";
const CARD_OUTLINE = `(() => {
  const card = document.activeElement?.closest('[data-testid="paper-card"]');
  if (!card) return null;
  const style = getComputedStyle(card);
  return { style: style.outlineStyle, width: parseFloat(style.outlineWidth), color: style.outlineColor };
})()`;

interface Outline {
  style: string;
  width: number;
  color: string;
}

async function textOf(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

function titleLink(card: Locator): Locator {
  return card.getByRole('heading').getByRole('link');
}

async function openTopic(page: Page): Promise<Locator> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/topics/${SLUG}`);
  const cards = page.getByTestId('paper-card');
  await expect(cards.nth(1)).toBeVisible();
  await expect(page.getByTestId('keyboard-hint')).toContainText('J/K move · Enter open · S save');
  return cards;
}

test('J and K move through a topic’s papers with a visible focus ring, and Enter opens one', async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: 'light' });
  const cards = await openTopic(page);

  await page.keyboard.press('j');
  await expect(titleLink(cards.nth(0))).toBeFocused();
  await page.keyboard.press('j');
  await expect(titleLink(cards.nth(1))).toBeFocused();
  expect(await page.evaluate(ACTIVE_TEXT)).toBe(await textOf(cards.nth(1).getByRole('heading')));
  await expect(cards.nth(1)).toBeInViewport({ ratio: 1 });

  // The focused card wears a ring, in both themes.
  const light = await page.evaluate<Outline | null>(CARD_OUTLINE);
  expect(light).not.toBeNull();
  expect(light?.style).not.toBe('none');
  expect(light?.width).toBeGreaterThanOrEqual(2);
  await page.screenshot({ path: shot('keyboard-focus-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.keyboard.press('k');
  await expect(titleLink(cards.nth(0))).toBeFocused();
  const dark = await page.evaluate<Outline | null>(CARD_OUTLINE);
  expect(dark).not.toBeNull();
  expect(dark?.style).not.toBe('none');
  expect(dark?.color).not.toBe(light?.color);
  await page.screenshot({ path: shot('keyboard-focus-dark.png') });

  // K stops at the first card; J then Enter opens the second.
  await page.keyboard.press('k');
  await expect(titleLink(cards.nth(0))).toBeFocused();
  await page.keyboard.press('j');
  const id = (await cards.nth(1).getAttribute('data-paper-id')) ?? '';
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/papers/${id.replace('.', '\\.')}$`));
  await expect(page.getByTestId('paper-title')).toBeVisible();
});

test('S saves the focused paper, and /saved lists it after a reload', async ({ page }) => {
  const cards = await openTopic(page);
  const first = cards.nth(0);
  const second = cards.nth(1);
  const firstId = (await first.getAttribute('data-paper-id')) ?? '';
  const secondId = (await second.getAttribute('data-paper-id')) ?? '';

  await page.keyboard.press('j');
  await page.keyboard.press('s');
  await expect(first.getByRole('button', { name: 'Saved', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(titleLink(first)).toBeFocused();
  await expect(page.getByTestId('announcer')).toContainText('Saved to your reading list');
  // The mouse does the same.
  await second.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(second.getByRole('button', { name: 'Saved', exact: true })).toBeVisible();

  await page.reload();
  await expect(first.getByRole('button', { name: 'Saved', exact: true })).toBeVisible();
  await page.getByRole('link', { name: /^Saved/ }).click();
  await expect(page.getByRole('heading', { name: 'Saved papers', level: 1 })).toBeVisible();
  await page.reload();
  const saved = page.getByTestId('saved-paper');
  // Last saved first.
  await expect(saved).toHaveCount(2);
  await expect(saved.nth(0)).toHaveAttribute('data-paper-id', secondId);
  await expect(saved.nth(1)).toHaveAttribute('data-paper-id', firstId);

  // S on the reading list removes the focused entry and leaves the focus on the next one.
  await page.keyboard.press('j');
  await page.keyboard.press('s');
  await expect(saved).toHaveCount(1);
  await expect(titleLink(saved.nth(0))).toBeFocused();
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(saved).toHaveCount(2);
  await expect(saved.nth(0)).toHaveAttribute('data-paper-id', secondId);
  await page.screenshot({ path: shot('saved.png') });

  // Enter opens the focused entry.
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await expect(titleLink(saved.nth(1))).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/papers/${firstId.replace('.', '\\.')}$`));
  // On a paper's own page, S saves or removes that paper (not one of its related papers, which have
  // Save buttons of their own once they load).
  const ownSave = page.locator('[data-testid="save-button"][aria-describedby="paper-title"]');
  await expect(ownSave).toHaveText('Saved');
  await expect(page.getByTestId('related-papers').getByTestId('save-button').first()).toBeVisible();
  await page.keyboard.press('s');
  await expect(ownSave).toHaveText('Save');
  await expect(ownSave).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByRole('link', { name: /^Saved/ })).toHaveText('Saved(1)');
});

test('? opens the shortcuts, Esc closes them; / focuses the filter, where keys type', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('topic-row').first()).toBeVisible();

  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await page.keyboard.press('?');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('J/K move · Enter open · S save · / search · ? shortcuts · Esc close');
  await page.screenshot({ path: shot('shortcuts-dialog.png') });
  await page.keyboard.press('j');
  await expect(page.locator('[data-nav-open]:focus')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // And by mouse, from the hint beside the list.
  await page.getByTestId('keyboard-hint').getByRole('button', { name: 'shortcuts' }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  // In the tree, J/K walk the topics shown, not those folded away.
  await page.getByRole('tab', { name: 'Tree' }).click();
  const roots = page.getByTestId('topic-tree').locator('[data-nav-list] > li');
  await page.keyboard.press('j');
  await expect(roots.nth(0).locator('[data-nav-open]').first()).toBeFocused();
  await page.keyboard.press('j');
  await expect(roots.nth(1).locator('[data-nav-open]').first()).toBeFocused();
  await page.getByRole('tab', { name: 'Rising' }).click();

  const filter = page.getByRole('searchbox', { name: 'Filter topics by name' });
  await page.keyboard.press('/');
  await expect(filter).toBeFocused();
  await page.keyboard.type('rl for j');
  await expect(filter).toHaveValue('rl for j');
  await filter.fill('rl for');
  // Esc leaves the box and keeps the filter; J/K then walk the matching topics.
  await page.keyboard.press('Escape');
  await expect(filter).not.toBeFocused();
  await expect(filter).toHaveValue('rl for');
  const rows = page.getByTestId('topic-row');
  await page.keyboard.press('j');
  await expect(rows.first().getByRole('link')).toBeFocused();
  const slug = (await rows.first().getAttribute('data-slug')) ?? '';
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/topics/${slug}$`));
});
