import { createThrowawayDatabase, type ThrowawayDatabase } from './throwaway-database.ts';

/**
 * A test file's own PostgreSQL database on the test server: `npm test` starts a throwaway server
 * (scripts/test-services.sh) and exports QUIRE_TEST_DATABASE_URL. Without it, `skip` says why and how to
 * run the file by hand; call `create` before the file's tests and `drop` after them.
 */
export interface PostgresForTests {
  /** Why the PostgreSQL half is skipped, or null. */
  skip: string | null;
  create(): Promise<void>;
  drop(): Promise<void>;
  /** The database's address, once created. */
  url(): string;
}

export function postgresForTests(label: string): PostgresForTests {
  const server = process.env.QUIRE_TEST_DATABASE_URL ?? '';
  const skip = server
    ? null
    : (process.env.QUIRE_TEST_POSTGRES_SKIP ??
      'QUIRE_TEST_DATABASE_URL is not set (npm test starts a throwaway PostgreSQL; by hand: bash scripts/test-services.sh pnpm exec vitest run <file>)');
  if (skip) console.warn(`${label}: PostgreSQL tests skipped: ${skip}`);
  let database: ThrowawayDatabase | null = null;
  return {
    skip,
    async create() {
      if (!skip) database = await createThrowawayDatabase(server, label);
    },
    async drop() {
      await database?.drop();
    },
    url() {
      if (!database) throw new Error('the throwaway PostgreSQL database was not created');
      return database.url;
    },
  };
}
