import type { IngestRow } from './harvest-state.ts';
import type { PaperRow } from './paper-queries.ts';

/*
 * A SQLite installation's rows as `quire migrate` carries them to PostgreSQL (issue 13): the stored columns
 * as they are, dates as the ISO text both engines keep and secrets as their SHA-256 hashes. Tables are
 * copied in this order: papers and what is stored with them first, then the group side, parents before
 * children, so every row's paper or group exists when the row arrives. What PostgreSQL derives itself is
 * not copied but compared at the end: paper_categories and the search terms (written with each paper),
 * paper_topics, the day counts and the search vocabulary (kept by its triggers as papers, the hierarchy
 * and tags arrive): the vocabulary's words and papers per word must be FTS5's, word for word.
 */
export const COPIED_TABLES = [
  'papers',
  'topic_closure',
  'topic_state',
  'paper_tags',
  'papers_to_tag',
  'harvest_checkpoints',
  'ingest_log',
  'groups',
  'group_invites',
  'calendar_feeds',
  'group_updates',
] as const;
export type CopiedTable = (typeof COPIED_TABLES)[number];

/** Tables PostgreSQL fills from the copied rows; their counts are compared once a copy is done. */
export const DERIVED_TABLES = [
  'paper_categories',
  'paper_topics',
  'day_counts',
  'topic_day_counts',
  'search_words',
] as const;
export type DerivedTable = (typeof DERIVED_TABLES)[number];

/** A derived table's rows, and the papers its counts add up to (day counts) or its rows (the others). */
export interface DerivedTotals {
  rows: number;
  sum: number;
}

export interface TopicClosureRow {
  topic: string;
  broader: string;
}

export interface TopicStateRow {
  topic: string;
  definition_hash: string;
  tagged_at: string;
}

export interface PaperTagRow {
  topic: string;
  paper_id: string;
  score: number;
  evidence: string;
}

export interface PaperToTagRow {
  paper_id: string;
}

export interface CheckpointRow {
  key: string;
  value: string;
  updated_at: string;
}

/** An ingest_log row with the columns a running row's process is known by. */
export interface IngestLogRow extends IngestRow {
  pid: number | null;
  run_token: string | null;
}

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

export interface CopiedRows {
  papers: PaperRow;
  topic_closure: TopicClosureRow;
  topic_state: TopicStateRow;
  paper_tags: PaperTagRow;
  papers_to_tag: PaperToTagRow;
  harvest_checkpoints: CheckpointRow;
  ingest_log: IngestLogRow;
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

/**
 * The key a page of `table` continues after, as text: the row id (a number for updates and the ingest log),
 * or a composite key's parts joined by a tab (ids and slugs hold none).
 */
export function keyOf(table: CopiedTable, row: CopiedRows[CopiedTable]): string {
  switch (table) {
    case 'topic_closure': {
      const r = row as TopicClosureRow;
      return `${r.topic}\t${r.broader}`;
    }
    case 'paper_tags': {
      const r = row as PaperTagRow;
      return `${r.topic}\t${r.paper_id}`;
    }
    case 'topic_state':
      return (row as TopicStateRow).topic;
    case 'papers_to_tag':
      return (row as PaperToTagRow).paper_id;
    case 'harvest_checkpoints':
      return (row as CheckpointRow).key;
    default:
      return String((row as { id: string | number }).id);
  }
}
