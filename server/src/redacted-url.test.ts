import { describe, expect, it } from 'vitest';
import { redactedUrl } from './errors.ts';

describe('redactedUrl', () => {
  it('hides a password and keeps the rest of the address', () => {
    expect(redactedUrl('postgres://quire:s3cret@db.example:5432/quire')).toBe(
      'postgres://quire:***@db.example:5432/quire',
    );
    expect(redactedUrl('redis://:hunter2@cache:6379')).toBe('redis://:***@cache:6379');
    expect(redactedUrl('redis://cache:6379')).toBe('redis://cache:6379');
  });

  it('never echoes an address it cannot read', () => {
    expect(redactedUrl('not an address with a s3cret')).toBe('(an unparseable address)');
  });
});
