/**
 * Which papers count as new for a member, said so the page can name it: since the member last marked the
 * inbox looked, or, for a member who never has, the last seven listing days. Those seven days end at the
 * newest listing day among the followed topics' papers rather than today, so a server whose papers are
 * weeks old still shows its newest week, under dates that say which week that is.
 */
import { addDays, isYmd } from '../dates.ts';
import { isWeekday } from '../listing-schedule.ts';
import { byCodeUnits } from './peer-values.ts';

/** Listing days a member who never looked sees: about a week of arXiv's announcements. */
export const NEW_MEMBER_LISTING_DAYS = 7;

export type InboxWindow =
  | { kind: 'since-looked'; since: string }
  /** `from`…`to` hold `days` listing days (weekdays); both null when there is no paper to count from. */
  | { kind: 'recent-listings'; days: number; from: string | null; to: string | null };

/** The first of the `days` listing days (weekdays) that end at `to`, `to` counted if it is one. */
export function firstOfListingDays(to: string, days: number): string {
  let day = to;
  while (!isWeekday(day)) day = addDays(day, -1);
  for (let left = days - 1; left > 0; left--) {
    day = addDays(day, -1);
    while (!isWeekday(day)) day = addDays(day, -1);
  }
  return day;
}

/** The window of a member who looked at `looked` (null: never), over the listing days of the candidates. */
export function windowOf(looked: string | null, listingDates: Iterable<string>): InboxWindow {
  if (looked !== null) return { kind: 'since-looked', since: looked };
  let newest: string | null = null;
  for (const day of listingDates) {
    if (isYmd(day) && (newest === null || byCodeUnits(day, newest) > 0)) newest = day;
  }
  const days = NEW_MEMBER_LISTING_DAYS;
  return {
    kind: 'recent-listings',
    days,
    from: newest === null ? null : firstOfListingDays(newest, days),
    to: newest,
  };
}
