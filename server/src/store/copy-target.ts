/*
 * Where `quire migrate` copies the group side to: PostgreSQL, the only engine besides SQLite. The CLI
 * reaches it through store/ (as the server does through stores.ts), never store/pg directly.
 */
export {
  PgCopyTarget as CopyTarget,
  type MigrateRun,
  type TableProgress,
  type TargetUpdateTotals,
} from './pg/pg-copy-target.ts';
