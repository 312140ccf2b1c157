import {
  CoreError,
  initialHarvestState,
  normaliseArxivId,
  SEARCH_SORTS,
  type HarvestStateDto,
  type PaperEntity,
  type PapersBatchDto,
  type PaperView,
  type SearchSort,
  type StatusDto,
} from '@quire/core';
import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { compress } from 'hono/compress';
import { QuireError } from '../errors.ts';
import type { SearchApi } from '../search/search-api.ts';
import type { Stores } from '../store/stores.ts';
import type { TopicQuery, TopicService } from '../topics/topic-service.ts';
import { ERROR_STATUS } from './error-status.ts';
import { calendarRoutes } from './calendar-routes.ts';
import { groupRoutes, type GroupRoutesOptions } from './group-routes.ts';
import { invitePreviewRoutes } from './invite-preview-routes.ts';
import { PreparedJson } from './prepared-json.ts';
import { securityHeaders } from './security-headers.ts';
import { serveWebApp } from './static-files.ts';

/** What the API reads from the store, on either engine. */
export type AppStores = Pick<Stores, 'papers' | 'ingests' | 'groupUpdates' | 'calendarFeeds'>;

export interface AppOptions {
  store: AppStores;
  /** Live harvest state, or null when background harvesting is off. */
  harvestState: () => HarvestStateDto | null;
  /** Called after a write outside the harvest (an on-demand fetch); resolves once its tags are stored. */
  onPapersChanged?: () => Promise<void>;
  /**
   * Fetches a paper the store lacks from arXiv's query API; absent when no source is configured. It may
   * refuse with 429 when too many are already being fetched (see PaperFetcher).
   */
  fetchPaper?: (id: string) => Promise<PaperEntity>;
  /** Folder of the built web app; absent in API-only tests. */
  webDir?: string;
  topics: TopicService;
  /** Full-text search; absent when the server was started without it. */
  search?: SearchApi;
  /** Largest accepted request body on /api/*, in bytes; DEFAULT_MAX_BODY_BYTES when left out. */
  maxBodyBytes?: number;
  /**
   * Parts still starting up ('tags' while stale tags are brought up to date); /api/status and /api/ready
   * report them.
   */
  warming?: () => string[];
  /** How far the tag thread's current run has got, or null between runs. */
  tagProgress?: () => { done: number; total: number } | null;
  /** Why the last tagging run failed (it is retried), or null. */
  tagError?: () => string | null;
  /** Groups and invites (/api/groups); absent when the server was started without group sync. */
  groups?: GroupRoutesOptions;
}

/** The default limit on an API request body. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/** JSON answers from this size up are compressed for a client that accepts gzip or deflate. */
const COMPRESS_FROM_BYTES = 1024;

/**
 * Gives a JSON answer its Content-Length, so that compress() can leave the small ones alone: c.json sets
 * none, and compress() compresses every body of unknown length.
 */
function jsonLength(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const type = c.res.headers.get('Content-Type') ?? '';
    if (!c.res.body || c.res.headers.has('Content-Length') || !type.startsWith('application/json')) return;
    const bytes = await c.res.arrayBuffer();
    c.res = new Response(bytes, c.res);
    c.res.headers.set('Content-Length', String(bytes.byteLength));
  };
}

/** Ids one GET /api/papers may ask for: a page of papers or two, with room to spare. */
const MAX_BATCH_PAPERS = 100;

export function createApp(options: AppOptions): Hono {
  const { store } = options;
  const app = new Hono();

  app.use('*', securityHeaders());

  // GET /api/topics is hundreds of KB of JSON. Only /api/*: the web app's files and the sync socket's
  // upgrade go their own way.
  app.use('/api/*', compress({ threshold: COMPRESS_FROM_BYTES }), jsonLength());

  // Every API body is small JSON (a group's name, an invite's role): a larger one is refused before it is
  // read whole, so a 200 MB upload cannot make the server hold it in memory.
  app.use(
    '/api/*',
    bodyLimit({
      maxSize: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      onError: (c) =>
        c.json(
          {
            error: 'too-large',
            message: `The request body is over ${Math.round((options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES) / 1024)} KiB, the limit for API requests (QUIRE_MAX_BODY_BYTES).`,
          },
          413,
        ),
    }),
  );

  app.get('/api/ping', (c) => c.json({ ok: true }));

  // Readiness, apart from liveness (/api/ping): 503 until every part has warmed up, for load balancers
  // and tests that must not time their first search against an index still being built.
  app.get('/api/ready', (c) => {
    const warming = options.warming?.() ?? [];
    if (warming.length === 0) return c.json({ ready: true, warming });
    return c.json({ ready: false, warming, message: `Still warming up: ${warming.join(', ')}.` }, 503);
  });

  app.get('/api/status', async (c) => {
    const [stats, ingests] = await Promise.all([store.papers.stats(), store.ingests.recentIngests(10)]);
    const status: StatusDto = {
      ...stats,
      harvest: options.harvestState() ?? initialHarvestState('disabled'),
      warming: options.warming?.() ?? [],
      tagging: options.tagProgress?.() ?? null,
      taggingError: options.tagError?.() ?? null,
      recentIngests: ingests.map((r) => ({
        kind: r.kind,
        source: r.source,
        startedAt: r.startedAt,
        finishedAt: r.finishedAt,
        status: r.status,
        inserted: r.inserted,
        updated: r.updated,
        unchanged: r.unchanged,
        skipped: r.skipped,
      })),
    };
    return c.json(status);
  });

  // Many papers in one request (a topic page's 20, a device refreshing its saved papers): ?ids=a,b,c.
  app.get('/api/papers', async (c) => {
    const raw = c.req.query('ids') ?? '';
    const wanted = raw
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
    if (wanted.length === 0 || wanted.length > MAX_BATCH_PAPERS) {
      throw new QuireError(
        'bad-input',
        `Give 1 to ${MAX_BATCH_PAPERS} arXiv ids as ?ids=2605.00001,2605.00002 (${wanted.length} given).`,
      );
    }
    const ids = [...new Set(wanted.map((w) => normaliseArxivId(w)))];
    // Asked together: on PostgreSQL each is a round trip, and a page asks for 20 at once.
    const found = await Promise.all(
      ids.map(async (id): Promise<PaperView | null> => {
        const stored = await store.papers.get(id);
        return stored ? { ...stored, tags: await options.topics.paperTags(id) } : null;
      }),
    );
    const papers = found.filter((p): p is PaperView => p !== null);
    const missing = ids.filter((_, i) => found[i] === null);
    return c.json({ papers, missing } satisfies PapersBatchDto);
  });

  // Not under /api/papers/: that route's id takes the rest of the path (old-style ids have a slash).
  app.get('/api/related/:id{.+}', async (c) => {
    if (!options.search) throw new QuireError('not-found', 'Search is not enabled on this server.');
    const id = normaliseArxivId(c.req.param('id'));
    const limit = wholeNumber('limit', c.req.query('limit'), 6, 1, 20);
    return c.json(await options.search.related(id, limit, await topicSizes(options.topics)));
  });

  // Old-style ids contain a slash (hep-th/9901001), so the id takes the rest of the path.
  app.get('/api/papers/:id{.+}', async (c) => {
    const id = normaliseArxivId(c.req.param('id'));
    const stored = await store.papers.get(id);
    if (stored) return c.json({ ...stored, tags: await options.topics.paperTags(id) });
    if (c.req.query('fetch') === '1' && options.fetchPaper) {
      const fetched = await options.fetchPaper(id);
      await options.onPapersChanged?.();
      return c.json({ ...fetched, tags: await options.topics.paperTags(id) });
    }
    throw new QuireError('not-found', `No paper ${id} is stored. Add ?fetch=1 to fetch it from arXiv.`);
  });

  // The topic service hands out its cached answers again: their bytes are made once.
  const prepared = new PreparedJson(COMPRESS_FROM_BYTES);

  app.get('/api/topics', async (c) =>
    prepared.respond(c, await options.topics.topics(topicQuery(c.req.query('asOf'), c.req.query('weeks')))),
  );

  app.get('/api/topics/:slug/ask', async (c) =>
    c.json(
      await options.topics.ask(
        c.req.param('slug'),
        c.req.query('q') ?? '',
        Math.min(20, Math.max(1, Number(c.req.query('limit') ?? 5) || 5)),
      ),
    ),
  );

  app.get('/api/topics/:slug', async (c) =>
    prepared.respond(
      c,
      await options.topics.topic(c.req.param('slug'), topicQuery(c.req.query('asOf'), c.req.query('weeks'))),
    ),
  );

  app.get('/api/search', async (c) => {
    if (!options.search) throw new QuireError('not-found', 'Search is not enabled on this server.');
    const page = {
      limit: wholeNumber('limit', c.req.query('limit'), 20, 1, 100),
      offset: wholeNumber('offset', c.req.query('offset'), 0, 0, 1_000_000),
      sort: searchSort(c.req.query('sort')),
    };
    return c.json(await options.search.search(c.req.query('q') ?? '', page));
  });

  if (options.groups) app.route('/api/groups', groupRoutes(options.groups));
  if (options.groups) app.route('/api/invites', invitePreviewRoutes({ groups: options.groups.groups }));
  if (options.groups) {
    const { groupUpdates: updates, calendarFeeds: feeds } = store;
    app.route('/api', calendarRoutes({ groups: options.groups.groups, updates, feeds }));
  }

  app.all('/api/*', (c) => {
    throw new QuireError('not-found', `No API endpoint ${c.req.method} ${c.req.path}.`);
  });

  if (options.webDir) app.use('*', serveWebApp(options.webDir));

  app.onError((err, c) => {
    if (err instanceof QuireError) {
      return c.json({ error: err.code, message: err.message }, ERROR_STATUS[err.code]);
    }
    if (err instanceof CoreError) return c.json({ error: err.code, message: err.message }, 400);
    console.error(err);
    return c.json({ error: 'internal', message: 'The server failed to answer; see its log.' }, 500);
  });

  return app;
}

/** Topic sizes from the (cached) directory, so a rare shared topic counts for more than a broad one. */
async function topicSizes(topics: TopicService): Promise<Map<string, number>> {
  return new Map((await topics.topics()).map((t) => [t.slug, t.momentum.total]));
}

function topicQuery(asOf: string | undefined, weeks: string | undefined): TopicQuery {
  const query: TopicQuery = {};
  if (asOf) query.asOf = asOf;
  if (weeks !== undefined) {
    const n = Number(weeks);
    if (!Number.isInteger(n) || n < 1 || n > 520) {
      throw new QuireError('bad-input', `weeks must be a whole number from 1 to 520, not "${weeks}".`);
    }
    query.weeks = n;
  }
  return query;
}

/** `?sort=` of a search: relevance when left out. */
function searchSort(raw: string | undefined): SearchSort {
  if (raw === undefined || raw === '') return 'relevance';
  const sort = SEARCH_SORTS.find((s) => s === raw);
  if (sort) return sort;
  throw new QuireError('bad-input', `sort must be ${SEARCH_SORTS.join(' or ')}, not "${raw}".`);
}

function wholeNumber(
  name: string,
  raw: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new QuireError('bad-input', `${name} must be a whole number from ${min} to ${max}, not "${raw}".`);
  }
  return n;
}
