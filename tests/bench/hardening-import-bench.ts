/**
 * The import section of `pnpm bench hardening` (issue 10, finding 5): peak RSS of importing hostile dumps, each
 * generated at run time in a temp folder and deleted after — a 200 MB one-line JSONL, a gzip of one line that
 * expands to 4 GB, an OAI-PMH page gzip that expands to 1.5 GB — beside a small well-formed file as a baseline.
 * Each import runs in a child process so each peak is its own. Takes about a minute, mostly writing the gzips.
 */
import { execFile } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGzip } from 'node:zlib';
import { repoRoot } from '../src/paths.ts';
import { paperLine } from '../src/harness/dump-line.ts';

const MiB = 1024 * 1024;
const CHILD = resolve(repoRoot, 'tests/bench/hardening-import-child.ts');
const LONG_LINE_MIB = Number(process.env.HARDENING_LONG_LINE_MIB ?? 200);
const GZIP_LINE_MIB = Number(process.env.HARDENING_GZIP_LINE_MIB ?? 4096);
const GZIP_XML_MIB = Number(process.env.HARDENING_GZIP_XML_MIB ?? 1536);

interface ChildFigures {
  ms: number;
  rssBeforeMiB: number;
  peakRssMiB: number;
  status: string;
  inserted: number;
  skipped: number;
  firstError: { line: number; message: string } | null;
  failure: { code: string; message: string } | null;
}

/** `head`, then `mib` MiB of `fill` written a MiB at a time (never held whole), then `tail`. */
async function writeFile(path: string, head: string, mib: number, fill: string, tail: string, gzip: boolean) {
  const block = Buffer.alloc(MiB, fill);
  const parts = (function* () {
    yield Buffer.from(head);
    for (let i = 0; i < mib; i++) yield block;
    yield Buffer.from(tail);
  })();
  const out = createWriteStream(path);
  // Level 1 is quick and still expands about 200 times, like the 18.7 MB file of the report.
  await (gzip
    ? pipeline(Readable.from(parts), createGzip({ level: 1 }), out)
    : pipeline(Readable.from(parts), out));
}

async function importInChild(dir: string, name: string, file: string): Promise<ChildFigures> {
  const db = join(dir, `${name}.db`);
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', CHILD, db, file], {
    cwd: repoRoot,
    maxBuffer: 16 * MiB,
  });
  rmSync(db, { force: true });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as ChildFigures;
}

export async function runImportHardeningBench(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'quire-bench-hardening-'));
  const figures: Record<string, unknown> = {};
  try {
    const cases: Array<{ name: string; file: string; make: () => Promise<void>; what: string }> = [
      {
        name: 'baseline',
        what: 'three well-formed lines',
        file: join(dir, 'baseline.jsonl'),
        make: () =>
          writeFile(
            join(dir, 'baseline.jsonl'),
            [1, 2, 3].map((n) => paperLine(n)).join('\n'),
            0,
            'x',
            '\n',
            false,
          ),
      },
      {
        name: 'longLine',
        what: `a ${LONG_LINE_MIB} MiB one-line JSONL between two good lines`,
        file: join(dir, 'long-line.jsonl'),
        make: () => {
          const [head, tail] = paperLine(2, '\u0000').split('\\u0000');
          return writeFile(
            join(dir, 'long-line.jsonl'),
            `${paperLine(1)}\n${head}`,
            LONG_LINE_MIB,
            'a',
            `${tail}\n${paperLine(3)}\n`,
            false,
          );
        },
      },
      {
        name: 'gzipLine',
        what: `a gzip of one line with no newline expanding to ${GZIP_LINE_MIB} MiB`,
        file: join(dir, 'bomb.jsonl.gz'),
        make: () =>
          writeFile(
            join(dir, 'bomb.jsonl.gz'),
            '{"id":"2604.00001","abstract":"',
            GZIP_LINE_MIB,
            'x',
            '"}',
            true,
          ),
      },
      {
        name: 'gzipXml',
        what: `an OAI-PMH page gzip expanding to ${GZIP_XML_MIB} MiB`,
        file: join(dir, 'bomb.xml.gz'),
        make: () =>
          writeFile(
            join(dir, 'bomb.xml.gz'),
            '<?xml version="1.0"?>\n<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-05-16T08:00:00Z</responseDate><!-- ',
            GZIP_XML_MIB,
            'x',
            ' --><ListRecords></ListRecords></OAI-PMH>\n',
            true,
          ),
      },
    ];
    for (const c of cases) {
      const t0 = performance.now();
      await c.make();
      const size = statSync(c.file).size;
      const genMs = performance.now() - t0;
      const result = await importInChild(dir, c.name, c.file);
      rmSync(c.file, { force: true });
      const outcome = result.failure
        ? `failed (${result.failure.code}): ${result.failure.message}`
        : `${result.inserted} stored, ${result.skipped} skipped${result.firstError ? ` (line ${result.firstError.line}: ${result.firstError.message})` : ''}`;
      console.log(
        `import ${c.what} (${(size / MiB).toFixed(1)} MiB on disk, written in ${(genMs / 1000).toFixed(1)} s): ` +
          `peak RSS ${result.peakRssMiB} MiB (${result.rssBeforeMiB} MiB before the import), ${(result.ms / 1000).toFixed(1)} s; ${outcome}`,
      );
      figures[c.name] = {
        fileMiB: Math.round((size / MiB) * 10) / 10,
        peakRssMiB: result.peakRssMiB,
        rssBeforeMiB: result.rssBeforeMiB,
        importMs: result.ms,
        status: result.status,
        inserted: result.inserted,
        skipped: result.skipped,
        failure: result.failure?.code ?? null,
      };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { import: figures };
}
