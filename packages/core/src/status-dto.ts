/**
 * The server status the API serves at GET /api/status and the web status page reads. It lives in core
 * because server and web never import each other.
 */
export interface HarvestStateDto {
  status: 'idle' | 'running' | 'waiting-to-retry' | 'stopped' | 'disabled';
  startedAt: string | null;
  lastSuccessAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
  consecutiveFailures: number;
  nextRunAt: string | null;
  lastRun: { rssListed: number; rssReplaced: number; oaiRecords: number } | null;
}

export interface IngestDto {
  kind: string;
  source: string;
  startedAt: string;
  /** Null while the run is going and for one that never finished. */
  finishedAt: string | null;
  /**
   * 'running' while it goes; 'interrupted' when its process was killed or crashed before it finished (what
   * it stored is kept, and running it again finishes it).
   */
  status: 'ok' | 'failed' | 'running' | 'interrupted';
  inserted: number;
  updated: number;
  unchanged: number;
  skipped: number;
}

export interface StatusDto {
  papers: number;
  byPrimaryCategory: Record<string, number>;
  firstListing: string | null;
  lastListing: string | null;
  harvest: HarvestStateDto;
  /**
   * Parts of the server still starting up ('tags' while stale tags are brought up to date); empty when
   * ready. The search index is on disk and has nothing to warm up.
   */
  warming: string[];
  /** Papers tagged so far of those the current tagging run has to tag; null when none is running. */
  tagging: { done: number; total: number } | null;
  /** Why the last tagging run failed, while it is being retried; null when the last run succeeded. */
  taggingError: string | null;
  recentIngests: IngestDto[];
}

/** The state before a harvester has run, and (with status 'disabled') when harvesting is off. */
export function initialHarvestState(status: HarvestStateDto['status'] = 'idle'): HarvestStateDto {
  return {
    status,
    startedAt: null,
    lastSuccessAt: null,
    lastError: null,
    lastErrorAt: null,
    consecutiveFailures: 0,
    nextRunAt: null,
    lastRun: null,
  };
}
