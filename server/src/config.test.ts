import { describe, expect, it } from 'vitest';
import { configFromEnv } from './config.ts';

describe('QUIRE_DATABASE_URL', () => {
  it('puts the group side on PostgreSQL, the address kept as given', () => {
    const url = 'postgres://quire:secret@db.example:5432/quire';
    expect(configFromEnv({ QUIRE_DATABASE_URL: url })).toEqual({ databaseUrl: url });
  });

  it('must be a postgres:// address', () => {
    expect(() => configFromEnv({ QUIRE_DATABASE_URL: 'mysql://db/quire' })).toThrow(/postgres:\/\//);
    expect(() => configFromEnv({ QUIRE_DATABASE_URL: 'not an address' })).toThrow(/not an address/);
  });

  it('leaves SQLite in charge when unset', () => {
    expect(configFromEnv({ QUIRE_DB: 'x.db' })).toEqual({ dbPath: 'x.db' });
  });
});

describe('QUIRE_REDIS_URL', () => {
  it('must be a redis:// address', () => {
    expect(configFromEnv({ QUIRE_REDIS_URL: 'redis://127.0.0.1:6380' })).toEqual({
      redisUrl: 'redis://127.0.0.1:6380',
    });
    expect(() => configFromEnv({ QUIRE_REDIS_URL: 'http://cache' })).toThrow(/redis:\/\//);
    expect(() => configFromEnv({ QUIRE_REDIS_URL: 'cache' })).toThrow(/not an address/);
  });
});
