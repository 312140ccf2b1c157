import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { repoRoot } from '../paths.ts';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

const CLI = resolve(repoRoot, 'server/src/cli/main.ts');

/** Runs `quire <args>` in a child process, as `pnpm quire` does, and collects its output. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', fail);
    child.once('close', (code) => done({ code, stdout, stderr }));
  });
}
