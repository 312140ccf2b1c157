import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { onTestFinished } from 'vitest';

/*
 * The PostgreSQL and Redis that `npm test` starts (scripts/test-services.sh exports their addresses), for
 * the test files that run several nodes. Without either, such a file skips and says how to run it by hand.
 */

export const CLUSTER_PG_URL = process.env.QUIRE_TEST_DATABASE_URL ?? '';
export const CLUSTER_REDIS_URL = process.env.QUIRE_TEST_REDIS_URL ?? '';

/** Why a several-node test file is skipped (already said on the console), or null when both services are given. */
export function clusterSkip(label: string, testFile: string): string | null {
  const skip = !CLUSTER_PG_URL
    ? (process.env.QUIRE_TEST_POSTGRES_SKIP ?? 'QUIRE_TEST_DATABASE_URL is not set')
    : !CLUSTER_REDIS_URL
      ? (process.env.QUIRE_TEST_REDIS_SKIP ?? 'QUIRE_TEST_REDIS_URL is not set')
      : null;
  if (skip) {
    console.warn(
      `${label}: skipped: ${skip} (npm test starts both; by hand: bash scripts/test-services.sh pnpm exec vitest run ${testFile})`,
    );
  }
  return skip;
}

/** Debian's redis-server, for tests that stop and start a Redis of their own; '' when it is not installed. */
export const REDIS_SERVER =
  spawnSync('sh', ['-c', 'command -v redis-server']).stdout?.toString().trim() ?? '';

export interface PrivateRedis {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/**
 * A redis-server of the calling test's own on a free port, stopped with SIGKILL and started again on it:
 * stopping the shared test Redis would disturb every other file. Stopped when the test finishes.
 */
export async function privateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    const started = spawn(
      REDIS_SERVER,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = started;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      started.stdout?.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('Ready to accept connections')) resolve();
      });
      started.once('exit', () => reject(new Error(`redis-server exited:\n${out}`)));
    });
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  onTestFinished(stop);
  return { url: `redis://127.0.0.1:${port}`, stop, start };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
