import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { onTestFinished } from 'vitest';
import { repoRoot } from '../paths.ts';

const CLI = resolve(repoRoot, 'server/src/cli/main.ts');

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** SIGKILL: no shutdown code runs. Resolves once the process is gone. */
  kill9(): Promise<void>;
}

/**
 * `quire serve` in a child process, as `pnpm quire serve` runs it but without pnpm in between, so a
 * signal reaches the server itself. Port 0; the URL is read from the line the server prints.
 */
export function spawnServer(dbPath: string, env: NodeJS.ProcessEnv = {}): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', CLI, '--db', dbPath, 'serve', '--no-harvest', '--port', '0'],
    { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  let output = '';
  return new Promise((done, fail) => {
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    child.stdout?.on('data', (d: Buffer) => {
      output += d.toString();
      const url = /serving \d+ papers at (http:\/\/\S+) /.exec(output)?.[1];
      if (url)
        done({
          child,
          url,
          async kill9() {
            child.kill('SIGKILL');
            await exited;
          },
        });
    });
    void exited.then(() => fail(new Error(`quire serve exited before listening:\n${output}`)));
  });
}
