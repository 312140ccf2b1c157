/**
 * The calendar feed endpoints (/api/groups/<id>/calendar-feeds, /api/calendar/<secret>.ics): a feed is a
 * read capability of its own, revocable like an invite, so a calendar app can subscribe without holding
 * an invite.
 */
export interface CalendarFeedDto {
  id: string;
  createdAt: string;
  revokedAt: string | null;
}

/** A feed as created: the only answer that holds its secret (inside `path`). */
export interface CreatedCalendarFeedDto extends CalendarFeedDto {
  /** The feed's path on this server, `/api/calendar/<secret>.ics`. */
  path: string;
}

export interface CalendarFeedsDto {
  feeds: CalendarFeedDto[];
}
