/**
 * The group pages' weight and the note editor's load, for `pnpm bench web` (issue 12): the JavaScript a
 * group page loads (gzipped at level 9; the note editor is a lazy chunk it must not pull in), the same for
 * a paper's notes page, and how long the notes page takes until the editor can be typed in (median of
 * fresh pages in one member's browser, warm server). Service workers are blocked so every file is counted
 * from the network, as on a first visit.
 */
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from '@playwright/test';

const PAPER = '2405.01234';
const RUNS = 5;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

async function jsOf(context: BrowserContext, url: string, ready: string) {
  const page = await context.newPage();
  const bodies: Promise<number>[] = [];
  page.on('response', (response) => {
    if (!new URL(response.url()).pathname.endsWith('.js')) return;
    bodies.push(
      response
        .body()
        .then((body) => gzipSync(body, { level: 9 }).length)
        .catch(() => 0),
    );
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.waitForSelector(ready);
  const sizes = await Promise.all(bodies);
  await page.close();
  return Number((sizes.reduce((s, n) => s + n, 0) / 1024).toFixed(1));
}

async function editorReadyMs(page: Page, url: string): Promise<number> {
  await page.goto(url);
  await page.waitForSelector('[data-testid="note-editor"]');
  return page.evaluate<number>('performance.now()');
}

export async function benchGroupPages(browser: Browser, origin: string): Promise<Record<string, number>> {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    await page.goto(`${origin}/groups`);
    await page.getByLabel('Group name').fill('Bench Club');
    await page.getByLabel('Your name in the group').fill('Ada');
    await page.getByRole('button', { name: 'Create group' }).click();
    const link = await page.getByTestId('created-group').getByTestId('invite-read-write').inputValue();
    const groupId = /\/join#([\w-]+)\./.exec(link)?.[1] ?? '';
    await page.close();

    const groupPageJsGzipKB = await jsOf(context, `${origin}/groups/${groupId}`, '[role="tab"]');
    const notesUrl = `${origin}/groups/${groupId}/papers/${PAPER}`;
    const notesPageJsGzipKB = await jsOf(context, notesUrl, '[data-testid="note-editor"]');
    console.log(
      `group page JavaScript: ${groupPageJsGzipKB} KB gzipped (level 9; the note editor is not in it); a paper's notes page: ${notesPageJsGzipKB} KB`,
    );
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const p = await context.newPage();
      times.push(await editorReadyMs(p, notesUrl));
      await p.close();
    }
    const noteEditorReadyMs = Math.round(median(times));
    console.log(
      `note editor load: notes page opened to editor ready ${noteEditorReadyMs} ms (median of ${RUNS}, warm server, no service worker)`,
    );
    return { groupPageJsGzipKB, notesPageJsGzipKB, noteEditorReadyMs };
  } finally {
    await context.close();
  }
}
