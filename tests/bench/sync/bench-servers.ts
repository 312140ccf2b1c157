import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../src/paths.ts';
import { readProcStat } from './proc-stat.ts';

/** A sync server in a process of its own, so its memory and CPU are its own. */
export interface ServerProcess {
  port: number;
  pid: number;
  /** Resident memory now, in MiB (from /proc). */
  rssMiB(): number;
  /** CPU time used so far (user + system), in seconds (from /proc). */
  cpuSeconds(): number;
  /** Read and write system calls so far, every thread's (from /proc/<pid>/io). */
  syscalls(): { reads: number; writes: number };
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

const ONE_ADDRESS_FOR_ALL = {
  QUIRE_SYNC_CONNECTIONS_PER_ADDRESS: '100000',
  QUIRE_SYNC_ADDRESS_RATE: '1000000',
  QUIRE_SYNC_ADDRESS_BURST: '1000000',
  QUIRE_SYNC_STATE_REQUESTS_PER_MINUTE: '1000000',
  QUIRE_SYNC_STATE_REQUEST_BURST: '100000',
  // The bench creates every group from one address (40 with the stress phase), past the default burst of 30.
  QUIRE_GROUP_CREATE_BURST: '100000',
};

/**
 * Quire's server (`quire serve`, no harvest) over a fresh, empty SQLite file; `env` adds to its
 * environment (QUIRE_DATABASE_URL, QUIRE_REDIS_URL for the runs on several nodes).
 */
export async function startQuireProcess(
  env: Record<string, string> = {},
): Promise<ServerProcess & { url: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'quire-sync-bench-'));
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      ...(process.env.SYNC_BENCH_CPU_PROF
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.SYNC_BENCH_CPU_PROF}`]
        : []),
      '--import',
      'tsx',
      'server/src/cli/main.ts',
      'serve',
      '--no-harvest',
      '--port',
      String(port),
      '--db',
      join(dir, 'quire.db'),
    ],
    // Every simulated member connects from this one address: lift the per-address limits (the
    // per-connection and per-invite ones still apply, as for real members).
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...ONE_ADDRESS_FOR_ALL, ...env },
    },
  );
  await waitForLine(child, /Quire is serving/);
  const proc = processHandle(child, port);
  return {
    ...proc,
    url: `http://127.0.0.1:${port}`,
    async stop() {
      await proc.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The stock @y/websocket-server (see stock-server.ts). */
export async function startStockProcess(): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'tests/bench/sync/stock-server.ts', String(port)],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  await waitForLine(child, /^listening \d+/m);
  return processHandle(child, port);
}

function processHandle(child: ChildProcess, port: number): ServerProcess {
  const pid = child.pid ?? 0;
  // Keep draining its output, or a chatty server would block on a full pipe.
  child.stdout?.resume();
  child.stderr?.resume();
  return {
    port,
    pid,
    rssMiB() {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return kb / 1024;
    },
    cpuSeconds() {
      return readProcStat(pid).cpuSeconds;
    },
    syscalls() {
      const io = readFileSync(`/proc/${pid}/io`, 'utf8');
      return {
        reads: Number(/syscr:\s+(\d+)/.exec(io)?.[1] ?? 0),
        writes: Number(/syscw:\s+(\d+)/.exec(io)?.[1] ?? 0),
      };
    },
    stop() {
      return new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      });
    },
  };
}

function waitForLine(child: ChildProcess, pattern: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (pattern.test(out)) {
        child.stdout?.off('data', onData);
        child.stderr?.off('data', onData);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`The server exited (${code}) before it was ready:\n${out}`)),
    );
  });
}
