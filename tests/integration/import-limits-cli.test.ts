import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/harness/run-cli.ts';
import { tempStore, type TempStore } from '../src/harness/temp-store.ts';
import { paperLine } from '../src/harness/dump-line.ts';

let t: TempStore;
beforeAll(() => {
  t = tempStore('quire-import-limits-cli-');
});
afterAll(() => t.dispose());

describe('quire import limits (issue 10, finding 5)', () => {
  it('reads QUIRE_IMPORT_MAX_LINE_BYTES and names the skipped line', async () => {
    const file = join(t.dir, 'mixed.jsonl');
    writeFileSync(
      file,
      [paperLine(1, 'short'), paperLine(2, 'x'.repeat(4096)), paperLine(3, 'short')].join('\n'),
    );
    const run = await runCli(['import', '--db', t.dbPath, '--json', file], {
      QUIRE_IMPORT_MAX_LINE_BYTES: '2048',
    });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      files: Array<{ inserted: number; skipped: number; errors: Array<{ line: number; message: string }> }>;
    };
    expect(report.files[0]).toMatchObject({ inserted: 2, skipped: 1 });
    expect(report.files[0]?.errors[0]?.line).toBe(2);
    expect(report.files[0]?.errors[0]?.message).toMatch(/longer than 2 KiB/);
  });

  it('refuses a setting that is not a whole number, naming it', async () => {
    const file = join(t.dir, 'one.jsonl');
    writeFileSync(file, paperLine(4, 'short'));
    const run = await runCli(['import', '--db', t.dbPath, file], { QUIRE_IMPORT_MAX_XML_BYTES: 'lots' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/QUIRE_IMPORT_MAX_XML_BYTES/);
  });
});
