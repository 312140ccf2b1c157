/**
 * Validation of what callers pass in. Everything is checked before a transaction starts, because Yjs keeps
 * whatever a transaction wrote before an exception.
 */
import { parseArxivId } from '../arxiv-id.ts';
import { isYmd, parseInstant, weekdayOf } from '../dates.ts';
import { CoreError } from '../errors.ts';
import { normaliseText } from '../text-normalise.ts';

export function invalidInput(message: string): CoreError {
  return new CoreError('invalid-input', message);
}

// Member and comment ids are chosen by clients (a UUID will do); "|" is reserved for map keys.
const CLIENT_ID = /^[A-Za-z0-9_.:-]{1,80}$/;

export function checkMemberId(memberId: string): string {
  if (typeof memberId !== 'string' || !CLIENT_ID.test(memberId)) {
    throw invalidInput(
      `${JSON.stringify(memberId)} is not a member id; use 1–80 letters, digits, "-", "_", "." or ":" (a UUID will do).`,
    );
  }
  return memberId;
}

export function checkClientId(id: string, what: string): string {
  if (typeof id !== 'string' || !CLIENT_ID.test(id)) {
    throw invalidInput(
      `${JSON.stringify(id)} is not a valid ${what} id; use 1–80 letters, digits, "-", "_", "." or ":" (a UUID will do).`,
    );
  }
  return id;
}

/** The normal arXiv id without version; throws CoreError('invalid-arxiv-id') with the accepted forms. */
export function checkPaperId(paperId: string): string {
  return parseArxivId(paperId).id;
}

/** `now` as the ISO string stored in the document. */
export function checkNow(now: Date): string {
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) {
    throw invalidInput('The current time is not a valid Date; pass the time of the action as a Date.');
  }
  return now.toISOString();
}

/** An ISO timestamp from a caller, stored in one canonical form. */
export function checkInstant(value: string, what: string): string {
  let ms: number;
  try {
    ms = parseInstant(value);
  } catch {
    throw invalidInput(
      `The ${what} ${JSON.stringify(value)} is not a timestamp; give an ISO 8601 time such as "2026-03-16T18:00:00Z".`,
    );
  }
  return new Date(ms).toISOString();
}

/** Display text: whitespace collapsed, non-empty, at most `max` characters. */
export function checkText(value: string, what: string, max: number): string {
  const text = typeof value === 'string' ? normaliseText(value) : '';
  if (text === '') throw invalidInput(`The ${what} is empty; give some text.`);
  if (text.length > max) {
    throw invalidInput(`The ${what} has ${text.length} characters; keep it to ${max} at most.`);
  }
  return text;
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function checkSlug(slug: string, what: string): string {
  if (typeof slug !== 'string' || !SLUG.test(slug) || slug.length > 100) {
    throw invalidInput(
      `${JSON.stringify(slug)} is not a ${what}; use lowercase letters and digits joined by hyphens, such as "rl-for-llm-agents".`,
    );
  }
  return slug;
}

/** A week key: the Monday that starts it, YYYY-MM-DD. */
export function checkWeek(week: string): string {
  if (typeof week !== 'string' || !isYmd(week) || weekdayOf(week) !== 1) {
    throw invalidInput(
      `${JSON.stringify(week)} is not a week; name a week by its Monday as YYYY-MM-DD (weekKeyOf computes it).`,
    );
  }
  return week;
}

export function checkVersion(version: number): number {
  if (!Number.isInteger(version) || version < 1) {
    throw invalidInput(`${String(version)} is not an arXiv version; versions are whole numbers from 1 (v1).`);
  }
  return version;
}
