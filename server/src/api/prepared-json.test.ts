import { describe, expect, it } from 'vitest';
import { takesGzip } from './prepared-json.ts';

describe('takesGzip', () => {
  it('takes gzip when named, alone or among others, with any weight above 0', () => {
    expect(takesGzip('gzip')).toBe(true);
    expect(takesGzip('gzip, deflate, br')).toBe(true);
    expect(takesGzip('br;q=1.0, GZIP;q=0.5')).toBe(true);
    expect(takesGzip('*')).toBe(true);
  });

  it('refuses it when absent, weighted 0, or refused by name under a star', () => {
    expect(takesGzip(undefined)).toBe(false);
    expect(takesGzip('')).toBe(false);
    expect(takesGzip('identity')).toBe(false);
    expect(takesGzip('deflate, br')).toBe(false);
    expect(takesGzip('gzip;q=0')).toBe(false);
    expect(takesGzip('*, gzip;q=0')).toBe(false);
    expect(takesGzip('*;q=0')).toBe(false);
  });
});
