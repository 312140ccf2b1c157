import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listingsDir } from '../src/paths.ts';
import { corpusManifest, loadCorpus, startReplayServer, type ReplayServer } from '../src/replay/index.ts';
import { runCli } from '../src/harness/run-cli.ts';
import { tempStore, type TempStore } from '../src/harness/temp-store.ts';

let replay: ReplayServer;
let t: TempStore;
const firstWeek = resolve(listingsDir, '2026-03-16.jsonl.br');

beforeAll(async () => {
  replay = await startReplayServer();
  t = tempStore();
  t.store.close();
});
afterAll(async () => {
  await replay.close();
  t.dispose();
});

describe('pnpm quire', () => {
  it('import then stats --json prints the documented object', async () => {
    const imported = await runCli(['import', '--db', t.dbPath, firstWeek]);
    expect(imported.code).toBe(0);
    const week = corpusManifest().files['2026-03-16.jsonl.br'];
    if (!week) throw new Error('manifest lacks the first week');
    const stats = await runCli(['stats', '--json'], { QUIRE_DB: t.dbPath });
    expect(stats.code).toBe(0);
    const lines = stats.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const body = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual([
      'byPrimaryCategory',
      'firstListing',
      'lastHarvest',
      'lastListing',
      'papers',
    ]);
    expect(body.papers).toBe(week.records);
    expect(body.firstListing).toBe(week.first_date);
    expect(body.lastListing).toBe(week.last_date);
    expect(body.lastHarvest).toBeNull();
    expect((body.byPrimaryCategory as Record<string, number>)['cs.CV']).toBe(week.primary_category['cs.CV']);
  });

  it('a harvest shows up as lastHarvest', async () => {
    replay.setDay('2026-03-17');
    const run = await runCli([
      'harvest',
      '--db',
      t.dbPath,
      '--rss',
      replay.rssUrl,
      '--categories',
      'cs.RO',
      '--delay',
      '0',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/RSS .*cs\.RO: feed of 2026-03-17, \d+ new or cross-listed/);
    const stats = JSON.parse((await runCli(['stats', '--json', '--db', t.dbPath])).stdout) as {
      lastHarvest: Record<string, unknown>;
    };
    expect(stats.lastHarvest).toMatchObject({ status: 'ok' });
    expect(String(stats.lastHarvest.source)).toContain('/rss/cs.RO');
  });

  it('fetch stores one paper through the query API', async () => {
    const later = (await loadCorpus()).find((p) => p.date === '2026-05-13');
    if (!later) throw new Error('corpus lacks 2026-05-13');
    const run = await runCli([
      'fetch',
      `https://arxiv.org/abs/${later.id}v1`,
      '--api',
      replay.apiUrl,
      '--db',
      t.dbPath,
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(later.id);
    const again = await runCli(['fetch', '2605.99999', '--api', replay.apiUrl, '--db', t.dbPath]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('arXiv has no paper 2605.99999');
  });

  it('--help on a command prints its usage, not a stack trace, and starts nothing', async () => {
    for (const [command, line] of [
      ['serve', 'serve [--port N]'],
      ['import', 'import <path…>'],
      ['harvest', '[--prefix arXivRaw|arXiv|oai_dc]'],
    ] as const) {
      const help = await runCli([command, '--help', '--db', join(t.dir, 'help.db')]);
      expect(help.code, command).toBe(0);
      expect(help.stdout).toContain(`Usage: pnpm quire ${command}`);
      expect(help.stdout).toContain(line);
      expect(help.stderr).not.toMatch(/\n\s+at /);
    }
    expect(existsSync(join(t.dir, 'help.db'))).toBe(false);
  });

  it('errors are clear sentences with a non-zero exit', async () => {
    const missing = await runCli(['import', '--db', t.dbPath, join(t.dir, 'nope.jsonl')]);
    expect(missing.code).toBe(1);
    expect(missing.stdout + missing.stderr).toContain('nope.jsonl');

    const strange = join(t.dir, 'notes.jsonl');
    writeFileSync(strange, 'this is not a dump\nat all\n');
    const unknown = await runCli(['import', '--db', t.dbPath, strange]);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout + unknown.stderr).toMatch(/format/i);

    const unreachable = await runCli(
      ['harvest', '--db', t.dbPath, '--rss', 'http://127.0.0.1:9/rss', '--delay', '0', '--retries', '1'],
      {},
    );
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/^quire: .*127\.0\.0\.1:9/m);

    const badDate = await runCli(['harvest', '--db', t.dbPath, '--from', 'yesterday']);
    expect(badDate.code).toBe(1);
    expect(badDate.stderr).toContain('--from must be a date like 2026-03-16');

    const noDb = await runCli(['stats', '--json', '--db', join(t.dir, 'typo.db')]);
    expect(noDb.code).toBe(1);
    expect(noDb.stderr).toContain('There is no database at');
    expect(existsSync(join(t.dir, 'typo.db'))).toBe(false);

    const unknownCommand = await runCli(['frobnicate']);
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toContain('unknown command "frobnicate"');

    // Nothing stored before the failures was lost.
    const stats = JSON.parse((await runCli(['stats', '--json', '--db', t.dbPath])).stdout) as {
      papers: number;
    };
    expect(stats.papers).toBeGreaterThanOrEqual(
      corpusManifest().files['2026-03-16.jsonl.br']?.records ?? Infinity,
    );
  });

  it('import, harvest and stats on PostgreSQL name a wrong or unreachable address, password left out', async () => {
    const file = join(listingsDir, '2026-03-16.jsonl.br');
    const closed = 'postgres://quire:secret@127.0.0.1:9/quire';
    const unreachable = await runCli(['import', '--db', t.dbPath, '--database-url', closed, file]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain('Cannot reach PostgreSQL at postgres://quire:***@127.0.0.1:9/quire');
    expect(unreachable.stderr).not.toContain('secret');

    const wrong = await runCli([
      'import',
      '--db',
      t.dbPath,
      '--database-url',
      'mysql://127.0.0.1/quire',
      file,
    ]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('must be a postgres:// or postgresql:// address');
    expect(wrong.stderr).toContain('Usage: quire import');

    const harvest = await runCli(['harvest', '--db', t.dbPath, '--rss', 'http://127.0.0.1:9/rss'], {
      QUIRE_DATABASE_URL: closed,
    });
    expect(harvest.code).toBe(1);
    expect(harvest.stderr).toMatch(
      /^quire: Cannot reach PostgreSQL at postgres:\/\/quire:\*\*\*@127\.0\.0\.1:9\/quire/m,
    );

    const stats = await runCli(['stats', '--db', t.dbPath], { QUIRE_DATABASE_URL: closed });
    expect(stats.code).toBe(1);
    expect(stats.stderr).toContain('Cannot reach PostgreSQL at postgres://quire:***@127.0.0.1:9/quire');
    expect(stats.stderr).not.toContain('secret');
    const statsWrong = await runCli(['stats', '--database-url', 'mysql://127.0.0.1/quire']);
    expect(statsWrong.code).toBe(2);
    expect(statsWrong.stderr).toContain('Usage: quire stats');
  });

  it('a broken dump line is skipped and reported with its line number', async () => {
    const file = join(t.dir, 'broken.jsonl');
    const good = (await loadCorpus()).slice(0, 3).map((p) => JSON.stringify(p));
    writeFileSync(file, `${good[0]}\n{"id": "2603.0000", "title": \n${good[1]}\n${good[2]}\n`);
    const other = tempStore();
    other.store.close();
    try {
      const run = await runCli(['import', '--db', other.dbPath, file]);
      expect(run.code).toBe(0);
      expect(run.stdout + run.stderr).toMatch(/line 2\b/);
      const stats = JSON.parse((await runCli(['stats', '--json', '--db', other.dbPath])).stdout) as {
        papers: number;
      };
      expect(stats.papers).toBe(3);
    } finally {
      other.dispose();
    }
  });
});
