import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { repoRoot } from '../paths.ts';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliProcess {
  child: ChildProcess;
  /** Output so far. */
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves when the process has exited and its output is read; `signal` names what killed it. */
  done: Promise<CliResult & { signal: NodeJS.Signals | null }>;
}

const CLI = resolve(repoRoot, 'server/src/cli/main.ts');

/**
 * Starts `quire <args>` in a child process without pnpm in between, so a signal sent to `child` reaches the
 * CLI itself.
 */
export function startCli(args: string[], env: NodeJS.ProcessEnv = {}): CliProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliResult & { signal: NodeJS.Signals | null }>((resolveDone, fail) => {
    child.once('error', fail);
    child.once('close', (code, signal) => resolveDone({ code, signal, stdout, stderr }));
  });
  return {
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    done,
  };
}

/** Runs `quire <args>` in a child process, as `pnpm quire` does, and collects its output. */
export async function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const { code, stdout, stderr } = await startCli(args, env).done;
  return { code, stdout, stderr };
}
