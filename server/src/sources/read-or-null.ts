/**
 * The parsers' rule for one field core cannot read (a date, say): leave it out rather than fail the page.
 * Only core's own verdict (CoreError) means unreadable; any other error is a bug and is thrown.
 */
import { CoreError } from '@quire/core';

export function readOrNull<T>(read: (value: string) => T, value: string): T | null {
  try {
    return read(value);
  } catch (err) {
    if (err instanceof CoreError) return null;
    throw err;
  }
}
