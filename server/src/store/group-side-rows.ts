/*
 * The group side's rows as `quire migrate` carries them from one engine to the other (issue 13): the
 * stored columns as they are, dates as the ISO text both engines keep and secrets as their SHA-256 hashes.
 * Tables are copied in this order, parents first, so every row's group exists when the row arrives.
 * Papers, tags and counts join this list once they have a PostgreSQL engine.
 */
export const GROUP_SIDE_TABLES = ['groups', 'group_invites', 'calendar_feeds', 'group_updates'] as const;
export type GroupSideTable = (typeof GROUP_SIDE_TABLES)[number];

export interface GroupRow {
  id: string;
  name: string;
  created_at: string;
}

export interface GroupInviteRow {
  id: string;
  group_id: string;
  role: string;
  token_hash: Buffer;
  created_at: string;
  revoked_at: string | null;
  invited_by: string | null;
}

export interface CalendarFeedRow {
  id: string;
  group_id: string;
  invite_id: string;
  token_hash: Buffer;
  created_at: string;
  revoked_at: string | null;
}

/** One update as SQLite numbers it (one row id for all groups); PostgreSQL numbers a group's rows 1, 2, … */
export interface GroupUpdateRow {
  id: number;
  group_id: string;
  data: Buffer;
}

export interface GroupSideRows {
  groups: GroupRow;
  group_invites: GroupInviteRow;
  calendar_feeds: CalendarFeedRow;
  group_updates: GroupUpdateRow;
}

/** What a group's update log holds, compared between the engines once a copy is done. */
export interface UpdateTotals {
  rows: number;
  bytes: number;
}

/** The key a page of `table` continues after: the row id (a number for updates), as text. */
export function keyOf(row: GroupSideRows[GroupSideTable]): string {
  return String(row.id);
}

/** Tables of the SQLite file that `quire migrate` does not copy yet, and why. */
export const NOT_COPIED_YET = {
  tables: [
    'papers',
    'paper_categories',
    'paper_tags',
    'day_counts',
    'topic_day_counts',
    'harvest_checkpoints',
    'ingest_log',
  ],
  reason:
    'papers are not on PostgreSQL yet: each node keeps its papers, tags, counts, checkpoints and search in its own SQLite file (README, "Scaling out")',
} as const;
