import { countsAsNew, normalisePaper, type PaperEntity } from '@quire/core';
import { QuireError, errorMessage } from '../errors.ts';
import { parseRssFeed, type RssItem } from '../sources/rss.ts';
import type { PoliteHttpClient } from './http-client.ts';
import { ZERO_COUNTS, type HarvestTarget, type UpsertCounts } from './harvest-target.ts';

export interface RssHarvestOptions {
  /** Base of the listing feeds, e.g. https://rss.arxiv.org/rss; categories are appended joined by '+'. */
  baseUrl: string;
  categories: string[];
  client: PoliteHttpClient;
  target: HarvestTarget;
  now?: () => Date;
  signal?: AbortSignal;
}

export interface RssHarvestReport {
  url: string;
  feedDate: string | null;
  /** Papers announced as new or cross-listed: these carry their listing date. */
  listed: number;
  /** Replacements: metadata refreshed, listing date and new-paper count untouched. */
  replaced: number;
  skipped: number;
  errors: string[];
  counts: UpsertCounts;
}

export interface RssCheckpoint {
  feedDate: string | null;
  items: number;
}

export function rssCheckpointKey(categories: string[]): string {
  return `rss:${[...categories].sort().join('+')}`;
}

/**
 * Reads today's listing feed. New and cross-listed items give papers their real listing date (correcting
 * an estimate from OAI-PMH); replacements update metadata only. The feed is rebuilt once a day, so reading
 * it twice is harmless: upserts of the same items change nothing.
 */
export async function harvestRss(options: RssHarvestOptions): Promise<RssHarvestReport> {
  if (options.categories.length === 0) {
    throw new QuireError('bad-input', 'No categories to harvest: pass --categories cs.AI,cs.LG or similar.');
  }
  const now = options.now ?? (() => new Date());
  const startedAt = now();
  const url = `${options.baseUrl.replace(/\/$/, '')}/${options.categories.join('+')}`;
  const report: RssHarvestReport = {
    url,
    feedDate: null,
    listed: 0,
    replaced: 0,
    skipped: 0,
    errors: [],
    counts: ZERO_COUNTS,
  };
  const log = (status: 'ok' | 'failed') =>
    options.target.logIngest({
      kind: 'harvest',
      source: `rss ${url}`,
      startedAt,
      finishedAt: now(),
      ...report.counts,
      skipped: report.skipped,
      errors: report.errors.map((message) => ({ message })),
      status,
    });
  try {
    const res = await options.client.get(url, options.signal);
    if (res.status >= 400) {
      throw new QuireError(
        'source-http-error',
        `${url} answered HTTP ${res.status}. Check the category names and the RSS base URL.`,
      );
    }
    const feed = parseRssFeed(res.body, url);
    report.feedDate = feed.pubDate;

    const listed: PaperEntity[] = [];
    const replaced: PaperEntity[] = [];
    for (const item of feed.items) {
      const paper = toPaper(item, report);
      if (!paper) continue;
      (countsAsNew(item.announceType) ? listed : replaced).push(paper);
    }
    report.listed = listed.length;
    report.replaced = replaced.length;
    const key = rssCheckpointKey(options.categories);
    const checkpoint: RssCheckpoint = { feedDate: feed.pubDate, items: feed.items.length };
    // Both kinds in one transaction with the checkpoint: the feed is stored whole or not at all.
    report.counts = await options.target.storeBatches(
      [
        { papers: listed, countsAsListing: true },
        { papers: replaced, countsAsListing: false },
      ],
      { key, value: checkpoint },
    );
    await log('ok');
    return report;
  } catch (err) {
    report.errors.push(errorMessage(err));
    await log('failed');
    throw err;
  }
}

function toPaper(item: RssItem, report: RssHarvestReport): PaperEntity | null {
  try {
    const isNew = countsAsNew(item.announceType);
    return normalisePaper({
      ...item.paper,
      // A replacement's feed date is not when the paper was listed.
      listingDate: isNew ? item.listingDate : null,
      listingDateEstimated: false,
    });
  } catch (err) {
    report.skipped += 1;
    if (report.errors.length < 100) report.errors.push(errorMessage(err));
    return null;
  }
}
