import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A database of its own for one test file, so files run in parallel against one PostgreSQL server. */
export interface ThrowawayDatabase {
  url: string;
  drop(): Promise<void>;
}

// The name is made here from [a-z0-9_] only, so it can stand in the statement unquoted.
const createDatabase = (name: string): string => `CREATE DATABASE ${name}`;
const dropDatabase = (name: string): string => `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`;

/** Creates an empty database on the server of `serverUrl` (a superuser's address, e.g. the test one). */
export async function createThrowawayDatabase(serverUrl: string, label: string): Promise<ThrowawayDatabase> {
  const slug = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, 30);
  const name = `quire_test_${slug}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await onServer(serverUrl, createDatabase(name));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(serverUrl, dropDatabase(name)) };
}

async function onServer(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
