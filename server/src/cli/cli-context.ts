import { DEFAULT_CONFIG, configFromEnv, type QuireConfig } from '../config.ts';

/** What every command gets: its arguments, the resolved database path and the output streams. */
export interface CliContext {
  dbPath: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

export function baseConfig(ctx: CliContext): QuireConfig {
  return { ...DEFAULT_CONFIG, ...configFromEnv(ctx.env), dbPath: ctx.dbPath };
}

export function writeLine(stream: NodeJS.WritableStream, line = ''): void {
  stream.write(`${line}\n`);
}
