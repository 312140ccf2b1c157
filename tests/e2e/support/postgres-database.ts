/**
 * Prints the address of a new, empty database on the test PostgreSQL (QUIRE_TEST_DATABASE_URL), for the
 * `postgres` project's shared server (playwright.config.ts), and writes it to FILE too, where specs that
 * read the server's stored groups find it (sharedServerStore). It is not dropped: it lives as long as the
 * throwaway server `npm test` starts and removes.
 *
 * `tsx tests/e2e/support/postgres-database.ts LABEL FILE`
 */
import { writeFileSync } from 'node:fs';
import { createThrowawayDatabase } from '@quire/server/store/pg/throwaway-database';

const serverUrl = process.env.QUIRE_TEST_DATABASE_URL;
if (!serverUrl) {
  console.error('QUIRE_TEST_DATABASE_URL is not set: start one with bash scripts/test-services.sh <command>');
  process.exit(1);
}
const database = await createThrowawayDatabase(serverUrl, process.argv[2] ?? 'e2e');
const file = process.argv[3];
if (file) writeFileSync(file, `${database.url}\n`);
console.log(database.url);
