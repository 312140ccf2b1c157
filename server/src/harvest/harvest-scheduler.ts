import { addDays, initialHarvestState, type HarvestStateDto } from '@quire/core';
import { errorMessage } from '../errors.ts';
import type { PoliteHttpClient } from './http-client.ts';
import type { HarvestTarget } from './harvest-target.ts';
import { DEFAULT_OAI_PREFIX, harvestOai, oaiCheckpointKey } from './oai-harvester.ts';
import { harvestRss } from './rss-harvester.ts';

export interface SchedulerOptions {
  oaiUrl: string;
  rssUrl: string;
  oaiSet: string;
  categories: string[];
  everyMs: number;
  client: PoliteHttpClient;
  target: HarvestTarget;
  now?: () => Date;
  /** First retry delay after a failure; doubled per failure up to everyMs. */
  retryBaseMs?: number;
  log?: (line: string) => void;
  /** Runs after each successful harvest (the server re-tags what arrived). */
  afterRun?: () => void;
}

/**
 * Background harvesting for `serve`: today's RSS listings, then an incremental OAI-PMH pass, every few
 * hours. When arXiv cannot be reached the server keeps serving; the failure is reported in the state (shown
 * on the status page) and retried with a growing delay.
 */
export class HarvestScheduler {
  readonly state: HarvestStateDto = initialHarvestState();
  private timer: NodeJS.Timeout | null = null;
  private readonly abort = new AbortController();
  private running: Promise<void> | null = null;
  private readonly now: () => Date;

  constructor(private readonly options: SchedulerOptions) {
    this.now = options.now ?? (() => new Date());
  }

  start(): void {
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.state.status = 'stopped';
    if (this.timer) clearTimeout(this.timer);
    this.abort.abort(new Error('The server is shutting down.'));
    await this.running?.catch(() => undefined);
  }

  private schedule(ms: number): void {
    if (this.abort.signal.aborted) return;
    this.state.nextRunAt = new Date(this.now().getTime() + ms).toISOString();
    this.timer = setTimeout(() => {
      this.running = this.runOnce();
    }, ms);
    this.timer.unref();
  }

  private async runOnce(): Promise<void> {
    const { options, state } = this;
    state.status = 'running';
    state.startedAt = this.now().toISOString();
    state.nextRunAt = null;
    try {
      const rss = await harvestRss({
        baseUrl: options.rssUrl,
        categories: options.categories,
        client: options.client,
        target: options.target,
        now: this.now,
        signal: this.abort.signal,
      });
      const hasCheckpoint =
        (await options.target.getCheckpoint(oaiCheckpointKey(options.oaiSet, DEFAULT_OAI_PREFIX))) !== null;
      const today = this.now().toISOString().slice(0, 10);
      const oai = await harvestOai({
        baseUrl: options.oaiUrl,
        set: options.oaiSet,
        // A fresh store mirrors the last few days only; bulk history comes from `quire import`.
        ...(hasCheckpoint ? {} : { from: addDays(today, -3) }),
        client: options.client,
        target: options.target,
        now: this.now,
        signal: this.abort.signal,
      });
      options.afterRun?.();
      state.lastRun = { rssListed: rss.listed, rssReplaced: rss.replaced, oaiRecords: oai.records };
      state.lastSuccessAt = this.now().toISOString();
      state.consecutiveFailures = 0;
      state.status = 'idle';
      options.log?.(
        `harvest: ${rss.listed} listed and ${rss.replaced} replaced from RSS, ${oai.records} OAI-PMH records`,
      );
      this.schedule(options.everyMs);
    } catch (err) {
      if (this.abort.signal.aborted) return;
      state.consecutiveFailures += 1;
      state.lastError = errorMessage(err);
      state.lastErrorAt = this.now().toISOString();
      state.status = 'waiting-to-retry';
      const base = options.retryBaseMs ?? 5 * 60_000;
      const delay = Math.min(options.everyMs, base * 2 ** (state.consecutiveFailures - 1));
      options.log?.(`harvest failed (${state.lastError}); retrying in ${Math.round(delay / 1000)} s`);
      this.schedule(delay);
    }
  }
}
