import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { StatusDto } from '@quire/core';
import { createApp } from '@quire/server/api/app';
import { openStore } from '@quire/server/store/open-store';
import { openTopics } from '@quire/server/topics/open-topics';
import { listingsDir } from '../src/paths.ts';
import { startCli } from '../src/harness/run-cli.ts';
import { tempStore } from '../src/harness/temp-store.ts';
import { waitFor } from '../src/harness/wait-for.ts';
import { sqliteStores } from '@quire/server/store/stores';

interface Row {
  source: string;
  status: string;
}

/** The ingest log as the file holds it, read through a connection of the test's own. */
function ingestRows(dbPath: string): Row[] {
  const db = new BetterSqlite3(dbPath, { readonly: true, fileMustExist: true });
  try {
    return db.prepare<[], Row>('SELECT source, status FROM ingest_log ORDER BY id').all();
  } finally {
    db.close();
  }
}

function storedPapers(dbPath: string): number {
  const db = new BetterSqlite3(dbPath, { readonly: true, fileMustExist: true });
  try {
    return db.prepare<[], number>('SELECT count(*) FROM papers').pluck().get() ?? 0;
  } finally {
    db.close();
  }
}

describe('an import killed with SIGKILL', () => {
  it('leaves a running row that the next start marks interrupted, and the status shows it', async () => {
    const t = tempStore();
    t.store.close();
    try {
      // Small batches: the first commits long before the ten weeks of the corpus are read.
      const cli = startCli(['import', '--db', t.dbPath, '--batch-size', '100', listingsDir]);
      // A machine busy with other test files can take a while to start tsx, hence the long wait.
      await waitFor(
        'the import to store its first batch',
        () => {
          if (cli.child.exitCode !== null) throw new Error(`quire import ended early:\n${cli.stderr}`);
          return storedPapers(t.dbPath) > 0 ? true : undefined;
        },
        90_000,
      );
      cli.child.kill('SIGKILL');
      const killed = await cli.done;
      expect(killed.signal).toBe('SIGKILL');

      const before = ingestRows(t.dbPath);
      expect(before.filter((r) => r.status === 'running')).toHaveLength(1);
      const cut = before.find((r) => r.status === 'running');

      // The next start of the CLI or the server opens the store; the importing process is gone.
      const store = openStore(t.dbPath);
      try {
        const after = ingestRows(t.dbPath);
        expect(after.filter((r) => r.status === 'running')).toEqual([]);
        expect(after.filter((r) => r.status === 'interrupted')).toEqual([
          { source: cut?.source, status: 'interrupted' },
        ]);
        expect(after.filter((r) => r.status !== 'interrupted').every((r) => r.status === 'ok')).toBe(true);

        const app = createApp({
          store: sqliteStores(store),
          harvestState: () => null,
          topics: (await openTopics(store)).topics,
        });
        const status = (await (await app.request('/api/status')).json()) as StatusDto;
        const shown = status.recentIngests.find((r) => r.status === 'interrupted');
        expect(shown).toMatchObject({ kind: 'import', source: cut?.source, finishedAt: null });
        expect(shown?.startedAt).toEqual(expect.any(String));
      } finally {
        store.close();
      }
    } finally {
      t.dispose();
    }
  }, 120_000);
});
