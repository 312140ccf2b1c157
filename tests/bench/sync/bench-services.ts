import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { repoRoot } from '../../src/paths.ts';
import { readProcStat } from './proc-stat.ts';

/** The throwaway PostgreSQL and Redis of scripts/test-services.sh, for as long as the bench needs them. */
export interface BenchServices {
  /** A superuser's address on the PostgreSQL server (databases are created on it per setup). */
  databaseUrl: string;
  redisUrl: string;
  stop(): Promise<void>;
}

/*
 * The script's own functions start and stop them, in a bash that stays alive until its stdin closes: the
 * stop runs from its EXIT trap, so the services go away when the bench stops them, exits, or is killed
 * (a killed bench closes the pipe too). Addresses already exported (QUIRE_TEST_DATABASE_URL /
 * QUIRE_TEST_REDIS_URL) are used as they are, as the tests do.
 */
const SCRIPT = `
set -u
source scripts/test-services.sh
trap test_services_stop EXIT
test_services_start >&2
echo "database=\${QUIRE_TEST_DATABASE_URL:-}"
echo "redis=\${QUIRE_TEST_REDIS_URL:-}"
echo "skip=\${QUIRE_TEST_POSTGRES_SKIP:-}\${QUIRE_TEST_REDIS_SKIP:+ }\${QUIRE_TEST_REDIS_SKIP:-}"
echo ready
read -r _ || true
`;

export async function startBenchServices(log: (line: string) => void): Promise<BenchServices> {
  const child = spawn('bash', ['-c', SCRIPT], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'] });
  const stderr = createInterface({ input: child.stderr });
  stderr.on('line', (line) => log(`  ${line}`));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    child.stdin.end();
    await exited;
  };
  const values = new Map<string, string>();
  const lines = createInterface({ input: child.stdout });
  await new Promise<void>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line === 'ready') return resolve();
      const at = line.indexOf('=');
      if (at > 0) values.set(line.slice(0, at), line.slice(at + 1));
    });
    child.once('exit', (code) =>
      reject(new Error(`scripts/test-services.sh exited (${code}) before the services were up.`)),
    );
  });
  const databaseUrl = values.get('database') ?? '';
  const redisUrl = values.get('redis') ?? '';
  if (!databaseUrl || !redisUrl) {
    await stop();
    throw new Error(
      `The bench needs PostgreSQL 15 and Redis (scripts/test-services.sh): ${values.get('skip') || 'one did not start'}.`,
    );
  }
  return { databaseUrl, redisUrl, stop };
}

/**
 * CPU seconds (user + system) the throwaway PostgreSQL (the postmaster and its live backends, and those
 * gone since, as its children's time) and Redis have used so far, found by the ports in their addresses.
 * They share the machine's cores with the nodes, so the cluster's cost per update includes theirs.
 */
export function serviceCpuSeconds(services: BenchServices): { postgres: number; redis: number } {
  const pgPort = new URL(services.databaseUrl).port;
  const redisPort = new URL(services.redisUrl).port;
  const procs = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((pid) => {
      try {
        const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
        return [{ pid: Number(pid), cmd, ...readProcStat(pid) }];
      } catch {
        return []; // gone meanwhile
      }
    });
  const postmaster = procs.find((p) => p.cmd.includes('postgres -D') && p.cmd.includes(`-p ${pgPort} `));
  const redis = procs.find((p) => p.cmd.startsWith('redis-server') && p.cmd.includes(`:${redisPort}`));
  const postgres = postmaster
    ? postmaster.cpuSeconds +
      postmaster.reapedCpuSeconds +
      procs.filter((p) => p.ppid === postmaster.pid).reduce((n, p) => n + p.cpuSeconds, 0)
    : Number.NaN;
  return { postgres, redis: redis ? redis.cpuSeconds : Number.NaN };
}
