/**
 * The header on a phone (390 px): one row on every page, online and offline, in a group's pages too, and no
 * text cut silently (a name may end in an ellipsis only when its full text is in a title). Search is an icon
 * that opens the box over the row; the links fold into a menu.
 */
import { expect, test, type Page } from '@playwright/test';
import { controlledByWorker, shot, syncState } from './support/group-ui.ts';

const LONG_NAME = 'Agents RL Reading Group of the Tuesday Lab';
const PHONE = { width: 390, height: 844 };

interface HeaderLayout {
  /** Rows the bar's items sit in (items laid out in the flow; a dropdown or the open search box is not one). */
  rows: number;
  barHeight: number;
  tallestItem: number;
  /** Elements whose text does not fit their box, past what an ellipsis with a title explains. */
  clipped: string[];
}

// Runs in the page, as source text: the tests project has no DOM types.
const MEASURE = `(() => {
  const bar = document.querySelector('header.site .bar');
  const items = [...bar.children].filter((el) => {
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    return style.display !== 'none' && style.position !== 'absolute' && box.width > 1 && box.height > 1;
  });
  const boxes = items.map((el) => el.getBoundingClientRect()).sort((a, b) => a.top - b.top);
  let rows = 0;
  let bottom = -Infinity;
  for (const box of boxes) {
    if (box.top >= bottom - 1) rows++;
    bottom = Math.max(bottom, box.bottom);
  }
  const roots = [...document.querySelectorAll('header.site, main header.head')];
  const clipped = [];
  for (const root of roots) {
    for (const el of [root, ...root.querySelectorAll('*')]) {
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      const text = (el.textContent ?? '').trim();
      if (!text || box.width <= 1 || box.height <= 1 || style.display === 'none') continue;
      if (style.visibility === 'hidden' || el.closest('.visually-hidden')) continue;
      if (style.clipPath !== 'none' || ['SELECT', 'OPTION', 'INPUT'].includes(el.tagName)) continue;
      const outside = box.right > window.innerWidth + 0.5 || box.left < -0.5;
      const overflows = el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0;
      if (!outside && !overflows) continue;
      const titled = el.closest('[title]');
      const explained = style.textOverflow === 'ellipsis' && titled && titled.getAttribute('title').includes(text);
      if (!outside && explained) continue;
      clipped.push(el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ')[0] : '') +
        ' "' + text.slice(0, 40) + '" ' + el.scrollWidth + '>' + el.clientWidth + (outside ? ' outside' : ''));
    }
  }
  return {
    rows,
    barHeight: bar.getBoundingClientRect().height,
    tallestItem: Math.max(...boxes.map((b) => b.height)),
    clipped,
  };
})()`;

async function expectOneRow(page: Page, what: string): Promise<void> {
  const layout = await page.evaluate<HeaderLayout>(MEASURE);
  expect(layout.clipped, `${what}: text cut`).toEqual([]);
  expect(layout.rows, `${what}: rows`).toBe(1);
  // The bar is one item high plus its padding: nothing wraps under it.
  expect(layout.barHeight, `${what}: bar height`).toBeLessThanOrEqual(layout.tallestItem + 24);
}

test('on a phone the header is one row, with a long group name, search as an icon, and offline', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Topics', level: 1 })).toBeVisible();
  await expectOneRow(page, 'home, no group');
  await page.screenshot({ path: shot('phone-header-home.png') });

  // The links fold into a menu, which closes once a link is followed.
  const links = page.getByRole('navigation', { name: 'Main' });
  await expect(links.getByRole('link', { name: 'Groups' })).toBeHidden();
  await page.getByTestId('menu-toggle').click();
  await expect(links.getByRole('link', { name: 'Groups' })).toBeVisible();
  await page.screenshot({ path: shot('phone-header-menu.png') });
  await links.getByRole('link', { name: 'Groups' }).click();
  await expect(page.getByRole('heading', { name: 'Groups', level: 1 })).toBeVisible();
  await expect(links.getByRole('link', { name: 'Groups' })).toBeHidden();

  // A group with a long name: the switcher ends it in an ellipsis, the full name in its title and menu.
  await page.getByLabel('Group name').fill(LONG_NAME);
  await page.getByLabel('Your name in the group').fill('Ada');
  await page.getByRole('button', { name: 'Create group' }).click();
  await expect(page.getByTestId('created-group')).toBeVisible();
  const switcher = page.getByTestId('group-switcher');
  await expect(switcher.locator('[title]').first()).toHaveAttribute('title', `Active group: ${LONG_NAME}`);
  await expect(switcher.getByRole('combobox', { name: 'Active group' })).toHaveValue(/.+/);
  await expect(switcher.getByRole('option', { name: LONG_NAME })).toHaveCount(1);
  await expectOneRow(page, 'groups page, long name');

  const groupId = await switcher.getByRole('combobox', { name: 'Active group' }).inputValue();
  await page.goto(`/groups/${groupId}`);
  await expect(page.getByRole('heading', { name: LONG_NAME, level: 1 })).toBeVisible();
  await expect(syncState(page)).toHaveAttribute('data-state', 'synced');
  await expectOneRow(page, 'group page');
  // Every section tab shows its whole label inside the screen (they wrap rather than scroll off the edge).
  const tabs = page.getByRole('tab');
  await expect(tabs).toHaveCount(8);
  for (const tab of await tabs.all()) {
    const label = (await tab.textContent())?.trim() ?? '';
    const box = await tab.boundingBox();
    expect(box, `tab "${label}" is laid out`).not.toBeNull();
    expect(box?.x ?? -1, `tab "${label}" starts inside the screen`).toBeGreaterThanOrEqual(0);
    expect(
      (box?.x ?? 0) + (box?.width ?? Infinity),
      `tab "${label}" ends inside the screen`,
    ).toBeLessThanOrEqual(PHONE.width);
  }
  await page.screenshot({ path: shot('phone-header-group.png') });

  // Search: the icon opens the box over the row; typing opens the search page.
  const box = page.getByRole('searchbox', { name: 'Search papers' });
  await expect(box).toBeHidden();
  await page.getByTestId('search-toggle').click();
  await expect(box).toBeVisible();
  await expect(box).toBeFocused();
  await expectOneRow(page, 'search box open');
  await box.pressSequentially('reward');
  await expect(page).toHaveURL(/\/search\?q=reward/);
  await expect(box).toBeVisible();
  await expectOneRow(page, 'search page');
  await page.screenshot({ path: shot('phone-header-search.png') });

  // Offline, on the group page: the status fits in the row.
  await page.goto(`/groups/${groupId}`);
  await expect(syncState(page)).toHaveAttribute('data-state', 'synced');
  await controlledByWorker(page);
  await context.setOffline(true);
  await expect(page.getByTestId('offline-indicator')).toBeVisible();
  await expect(syncState(page)).toHaveAttribute('data-state', 'offline');
  await expectOneRow(page, 'group page offline');
  await page.screenshot({ path: shot('phone-header-group-offline.png') });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Topics', level: 1 })).toBeVisible();
  await expect(page.getByTestId('offline-indicator')).toBeVisible();
  await expectOneRow(page, 'home offline');
  await page.screenshot({ path: shot('phone-header-home-offline.png') });

  await context.close();
});

test('at desktop width the header keeps its links and box in one row, offline too', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto('/groups');
  await page.getByLabel('Group name').fill(LONG_NAME);
  await page.getByLabel('Your name in the group').fill('Ada');
  await page.getByRole('button', { name: 'Create group' }).click();
  await expect(page.getByTestId('created-group')).toBeVisible();
  await expect(page.getByRole('searchbox', { name: 'Search papers' })).toBeVisible();
  await expect(page.getByTestId('search-toggle')).toBeHidden();
  await expectOneRow(page, 'desktop');
  await controlledByWorker(page);
  await context.setOffline(true);
  await expect(page.getByTestId('offline-indicator')).toBeVisible();
  await expectOneRow(page, 'desktop offline');
  await page.screenshot({ path: shot('desktop-header-offline.png') });
  await context.close();
});
