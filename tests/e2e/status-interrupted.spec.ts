import { spawn } from 'node:child_process';
import BetterSqlite3 from 'better-sqlite3';
import { expect, test } from './support/quire-server.ts';

/** The pid of a process that has run and exited, so no process has it now. */
function deadPid(): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['-e', '']);
    child.once('error', fail);
    child.once('exit', () => (child.pid === undefined ? fail(new Error('no pid')) : done(child.pid)));
  });
}

test('an import whose process died shows as interrupted on the status page', async ({ page, quire }) => {
  const server = await quire.start();
  await server.kill9();
  // The row a `quire import` killed with -9 leaves behind: still 'running', under a process now gone.
  const db = new BetterSqlite3(server.dbPath);
  try {
    db.prepare(
      `INSERT INTO ingest_log (kind, source, started_at, status, pid, run_token)
       VALUES ('import', 'listings/2026-03-16.jsonl.br', ?, 'running', ?, 'killed')`,
    ).run(new Date().toISOString(), await deadPid());
  } finally {
    db.close();
  }
  await server.restart();

  await page.goto(`${server.url}/status`);
  const run = page.locator('[data-testid="ingest"][data-status="interrupted"]');
  await expect(run).toContainText('interrupted');
  await expect(run).toContainText('listings/2026-03-16.jsonl.br');
  await expect(run).toContainText('stopped before it finished');
  await expect(run).toContainText('Run the import again to finish it.');
});
