/** The shapes the server's JSON API answers with (kept beside the client code that reads them). */
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
  finishedAt: string;
  status: 'ok' | 'failed';
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
  recentIngests: IngestDto[];
}
