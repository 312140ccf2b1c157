/**
 * The server side of `pnpm bench scale`: `quire serve` in a child process of its own, so its RSS (read from
 * /proc, worker threads included) is the server's alone and not the bench's, and timed HTTP requests to it.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { startCli, type CliProcess } from '../src/harness/run-cli.ts';

export interface Latency {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  count: number;
}

export function latency(values: readonly number[]): Latency {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number): number =>
    round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN);
  return { p50: at(50), p95: at(95), p99: at(99), max: at(100), count: sorted.length };
}

export function round(n: number, places = 1): number {
  const f = 10 ** places;
  return Math.round(n * f) / f;
}

export interface Timed<T> {
  ms: number;
  status: number;
  bytes: number;
  body: T;
}

// Kept-alive connections, as a browser keeps them. node:http rather than fetch: fetch gives up on an answer
// after five minutes without headers, and at 10× the first search waits longer than that for the index.
const agent = new Agent({ keepAlive: true });

/** One GET, timed until its whole body is read (what a browser waits for), then parsed as JSON. */
export function timedGet<T = unknown>(url: string): Promise<Timed<T>> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    get(url, { agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const ms = performance.now() - t0;
        const raw = Buffer.concat(chunks);
        try {
          const body = JSON.parse(raw.toString('utf8')) as T;
          resolve({ ms, status: res.statusCode ?? 0, bytes: raw.byteLength, body });
        } catch (err) {
          reject(
            new Error(`GET ${url} answered ${res.statusCode} with a body that is not JSON.`, { cause: err }),
          );
        }
      });
    }).on('error', reject);
  });
}

export interface MemoryFigures {
  /** Resident now, and the kernel's high-water mark for the process, in MiB. */
  rssMiB: number;
  peakRssMiB: number;
}

/** VmRSS and VmHWM of a process, from /proc/<pid>/status (Linux; kB there). */
export function memoryOf(pid: number): MemoryFigures {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMiB: Math.round(kb('VmRSS') / 1024), peakRssMiB: Math.round(kb('VmHWM') / 1024) };
}

export interface ServeProcess {
  cli: CliProcess;
  pid: number;
  url: string;
  /** From spawning the process to its "serving" line: node and tsx start-up, opening the store, listening. */
  listenMs: number;
  /** SIGTERM (the server closes its store and threads), then SIGKILL if it has not gone in 30 s. */
  stop(): Promise<void>;
}

/**
 * `quire --db <db> serve --no-harvest --port 0`, as a self-hoster runs it, without pnpm in between; `env`
 * adds to the bench's environment (QUIRE_DATABASE_URL for PostgreSQL).
 */
export async function startServe(
  dbPath: string,
  onSpawn: (child: ChildProcess) => void,
  env: NodeJS.ProcessEnv = {},
): Promise<ServeProcess> {
  const t0 = performance.now();
  const cli = startCli(['--db', dbPath, 'serve', '--no-harvest', '--port', '0'], env);
  onSpawn(cli.child);
  const pid = cli.child.pid;
  if (pid === undefined) throw new Error('quire serve did not start (no process id).');
  const url = await new Promise<string>((resolve, reject) => {
    const look = (): void => {
      const found = /serving \d+ papers at (http:\/\/\S+) /.exec(cli.stdout)?.[1];
      if (found) resolve(found);
    };
    cli.child.stdout?.on('data', look);
    void cli.done.then((r) =>
      reject(
        new Error(`quire serve exited (${r.code ?? r.signal}) before listening:\n${r.stdout}${r.stderr}`),
      ),
    );
  });
  const listenMs = performance.now() - t0;
  return {
    cli,
    pid,
    url,
    listenMs,
    async stop() {
      // Idle kept-alive sockets would hold up the server's close.
      agent.destroy();
      if (cli.child.exitCode !== null || cli.child.signalCode !== null) return;
      cli.child.kill('SIGTERM');
      const timer = setTimeout(() => cli.child.kill('SIGKILL'), 30_000);
      await cli.done;
      clearTimeout(timer);
    },
  };
}

export const PING_EVERY_MS = 20;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Pings `/api/ping` every PING_EVERY_MS (the next one PING_EVERY_MS after the last began, or at once if it
 * took longer) until `until` resolves, and returns each ping's time, sorted into the `phase` it fell in.
 */
export async function pingUntil(
  base: string,
  until: Promise<unknown>,
  phase: () => string = () => 'all',
): Promise<Map<string, number[]>> {
  let over = false;
  void until.finally(() => (over = true));
  const pings = new Map<string, number[]>();
  while (!over) {
    const started = performance.now();
    const name = phase();
    const { ms } = await timedGet(`${base}/api/ping`);
    const times = pings.get(name) ?? [];
    times.push(ms);
    pings.set(name, times);
    await sleep(Math.max(0, PING_EVERY_MS - (performance.now() - started)));
  }
  return pings;
}
