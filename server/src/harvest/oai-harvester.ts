import { addDays, normalisePaper, type PaperEntity } from '@quire/core';
import { QuireError, errorMessage } from '../errors.ts';
import { parseOaiResponse, type OaiPage } from '../sources/oai-pmh.ts';
import type { PoliteHttpClient } from './http-client.ts';
import { ZERO_COUNTS, addCounts, type HarvestTarget, type UpsertCounts } from './harvest-target.ts';

export type OaiMetadataPrefix = 'arXiv' | 'arXivRaw' | 'oai_dc';

/**
 * arXivRaw is the default: it carries every version with its full submission time, which pins the
 * estimated listing date exactly; the arXiv format gives only the v1 day, which is ambiguous around the
 * 14:00 ET cut-off (about one estimate in five lands a listing day early), though it has affiliations.
 */
export const DEFAULT_OAI_PREFIX: OaiMetadataPrefix = 'arXivRaw';

export interface OaiHarvestOptions {
  baseUrl: string;
  set?: string;
  metadataPrefix?: OaiMetadataPrefix;
  /** YYYY-MM-DD. Without it: resume an unfinished run, else re-fetch from 3 days before the last one's end. */
  from?: string;
  until?: string;
  client: PoliteHttpClient;
  target: HarvestTarget;
  now?: () => Date;
  signal?: AbortSignal;
  /** A page whose body is malformed is fetched again this many times before the harvest stops. */
  maxPageAttempts?: number;
  onPage?: (progress: OaiProgress) => void;
}

export interface OaiProgress {
  pages: number;
  records: number;
  completeListSize: number | null;
  counts: UpsertCounts;
}

export interface OaiHarvestReport extends OaiProgress {
  resumed: boolean;
  restarts: number;
  skipped: number;
  errors: string[];
  nothingNew: boolean;
}

/** Saved after every page, in the page's transaction, so an interrupted harvest resumes exactly there. */
export interface OaiCheckpoint {
  set: string;
  metadataPrefix: OaiMetadataPrefix;
  from: string | null;
  until: string | null;
  /** Token for the next page; null once the list is complete. */
  resumptionToken: string | null;
  /** Latest record datestamp stored: the restart point when a token has expired. */
  lastDatestamp: string | null;
  pages: number;
  records: number;
  completed: boolean;
}

/** arXiv re-announces late papers and fixes metadata for days, so incremental runs overlap by 3 days. */
const OVERLAP_DAYS = 3;

export function oaiCheckpointKey(set: string, prefix: OaiMetadataPrefix): string {
  return `oai:${set}:${prefix}`;
}

export async function harvestOai(options: OaiHarvestOptions): Promise<OaiHarvestReport> {
  const set = options.set ?? 'cs';
  const prefix = options.metadataPrefix ?? DEFAULT_OAI_PREFIX;
  const now = options.now ?? (() => new Date());
  const key = oaiCheckpointKey(set, prefix);
  const startedAt = now();
  const saved = await options.target.getCheckpoint<OaiCheckpoint>(key);

  let state: OaiCheckpoint;
  let resumed = false;
  const explicit = options.from !== undefined || options.until !== undefined;
  const sameRange =
    saved && (saved.from ?? undefined) === options.from && (saved.until ?? undefined) === options.until;
  if (saved && !saved.completed && (!explicit || sameRange)) {
    state = saved;
    resumed = true;
  } else {
    // A finished run that stored nothing has no datestamp: the next starts where it started, never from
    // the archive's beginning (a fresh server's first run finds nothing on a quiet day).
    const from =
      options.from ??
      (saved?.lastDatestamp
        ? addDays(saved.lastDatestamp.slice(0, 10), -OVERLAP_DAYS)
        : (saved?.from ?? null));
    state = fresh(set, prefix, from, options.until ?? null);
  }

  const report: OaiHarvestReport = {
    pages: 0,
    records: 0,
    completeListSize: null,
    counts: ZERO_COUNTS,
    resumed,
    restarts: 0,
    skipped: 0,
    errors: [],
    nothingNew: false,
  };

  try {
    for (;;) {
      const url = state.resumptionToken
        ? `${options.baseUrl}?verb=ListRecords&resumptionToken=${encodeURIComponent(state.resumptionToken)}`
        : listUrl(options.baseUrl, state);
      const page = await fetchPage(options, url);

      if (page.error?.code === 'badResumptionToken') {
        if (!state.resumptionToken || report.restarts >= 3) {
          throw new QuireError(
            'bad-resumption-token',
            `The OAI-PMH server keeps rejecting our resumption token (${page.error.message}).`,
          );
        }
        // Tokens expire; everything up to lastDatestamp is stored, so listing again from that day leaves
        // no gap, and upserts make the overlap harmless.
        report.restarts += 1;
        state = { ...state, from: state.lastDatestamp ?? state.from, resumptionToken: null };
        continue;
      }
      if (page.error?.code === 'noRecordsMatch') {
        report.nothingNew = report.records === 0;
        state = { ...state, resumptionToken: null, completed: true };
        await options.target.storeBatches([], { key, value: state });
        break;
      }
      if (page.error) {
        throw new QuireError(
          'oai-error',
          `The OAI-PMH server answered with error "${page.error.code}": ${page.error.message}`,
        );
      }

      const papers: PaperEntity[] = [];
      for (const record of page.records) {
        try {
          papers.push(normalisePaper(record.paper));
        } catch (err) {
          report.skipped += 1;
          if (report.errors.length < 100) report.errors.push(`${record.identifier}: ${errorMessage(err)}`);
        }
      }
      const lastDatestamp = page.records.reduce<string | null>(
        (max, r) => (max === null || r.datestamp > max ? r.datestamp : max),
        state.lastDatestamp,
      );
      const token = page.resumptionToken?.token || null;
      state = {
        ...state,
        resumptionToken: token,
        lastDatestamp,
        pages: state.pages + 1,
        records: state.records + page.records.length,
        completed: token === null,
      };
      const counts = await options.target.storeBatches([{ papers, countsAsListing: true }], {
        key,
        value: state,
      });
      report.pages += 1;
      report.records += page.records.length;
      report.counts = addCounts(report.counts, counts);
      report.completeListSize = page.resumptionToken?.completeListSize ?? report.completeListSize;
      options.onPage?.(report);
      if (token === null) break;
    }
    await logRun(options, startedAt, now(), report, 'ok');
    return report;
  } catch (err) {
    report.errors.push(errorMessage(err));
    await logRun(options, startedAt, now(), report, 'failed');
    throw err;
  }
}

function fresh(
  set: string,
  prefix: OaiMetadataPrefix,
  from: string | null,
  until: string | null,
): OaiCheckpoint {
  return {
    set,
    metadataPrefix: prefix,
    from,
    until,
    resumptionToken: null,
    lastDatestamp: null,
    pages: 0,
    records: 0,
    completed: false,
  };
}

function listUrl(baseUrl: string, state: OaiCheckpoint): string {
  const params = new URLSearchParams({ verb: 'ListRecords', metadataPrefix: state.metadataPrefix });
  if (state.set) params.set('set', state.set);
  if (state.from) params.set('from', state.from);
  if (state.until) params.set('until', state.until);
  return `${baseUrl}?${params.toString()}`;
}

/** A malformed or truncated page is fetched again; nothing of it is stored until it parses whole. */
async function fetchPage(options: OaiHarvestOptions, url: string): Promise<OaiPage> {
  const attempts = options.maxPageAttempts ?? 3;
  for (let attempt = 1; ; attempt += 1) {
    const res = await options.client.get(url, options.signal);
    try {
      if (res.status >= 400 && !res.body.includes('<OAI-PMH')) {
        throw new QuireError('source-http-error', `${url} answered HTTP ${res.status}.`);
      }
      return parseOaiResponse(res.body, url);
    } catch (err) {
      if (!(err instanceof QuireError) || err.code !== 'malformed-xml' || attempt >= attempts) throw err;
    }
  }
}

function logRun(
  options: OaiHarvestOptions,
  startedAt: Date,
  finishedAt: Date,
  report: OaiHarvestReport,
  status: 'ok' | 'failed',
): Promise<void> {
  return options.target.logIngest({
    kind: 'harvest',
    source: `oai-pmh ${options.baseUrl} set=${options.set ?? 'cs'}`,
    startedAt,
    finishedAt,
    ...report.counts,
    skipped: report.skipped,
    errors: report.errors.map((message) => ({ message })),
    status,
  });
}
