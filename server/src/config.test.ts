import { describe, expect, it } from 'vitest';
import { configFromEnv } from './config.ts';

describe('QUIRE_DATABASE_URL', () => {
  it('is refused by name while PostgreSQL holds only the group stores, never ignored', () => {
    const env = { QUIRE_DATABASE_URL: 'postgres://quire:secret@db.example:5432/quire' };
    expect(() => configFromEnv(env)).toThrow(
      /papers, tags, topic counts and search on PostgreSQL are not built yet/,
    );
    expect(() => configFromEnv(env)).toThrow(/db\.example:5432\/quire/);
    expect(() => configFromEnv(env)).not.toThrow(/secret/);
  });

  it('must be a postgres:// address', () => {
    expect(() => configFromEnv({ QUIRE_DATABASE_URL: 'mysql://db/quire' })).toThrow(/postgres:\/\//);
    expect(() => configFromEnv({ QUIRE_DATABASE_URL: 'not an address' })).toThrow(/not an address/);
  });

  it('leaves SQLite in charge when unset', () => {
    expect(configFromEnv({ QUIRE_DB: 'x.db' })).toEqual({ dbPath: 'x.db' });
  });
});
