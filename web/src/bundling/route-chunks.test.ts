import { describe, expect, it } from 'vitest';
import { routeChunkNames } from './route-chunks.ts';

const GEN = '/w/web/.svelte-kit/generated/client-optimized';
const KIT = '/w/node_modules/@sveltejs/kit/src/runtime/client';
const SRC = '/w/web/src';

/** A small app shaped like the real one: a layout, a topic and a search page, a group page, lazy code. */
const GRAPH: Record<string, string[]> = {
  [`${KIT}/entry.js`]: [`${KIT}/client.js`],
  [`${KIT}/client.js`]: ['/w/node_modules/svelte/internal.js'],
  [`${GEN}/app.js`]: [],
  [`${GEN}/nodes/0.js`]: [`${SRC}/routes/+layout.svelte`],
  [`${SRC}/routes/+layout.svelte`]: [`${SRC}/lib/header.svelte`, '/w/node_modules/svelte/internal.js'],
  [`${SRC}/lib/header.svelte`]: [`${SRC}/lib/active-group.ts`, '/w/packages/core/src/index.ts'],
  // A barrel: the bundler keeps of it what is used; a group would keep it whole.
  '/w/packages/core/src/index.ts': ['/w/node_modules/minisearch/index.js'],
  [`${SRC}/lib/active-group.ts`]: [],
  // Loaded on demand (active-group's dynamic import), and imported by a group page.
  [`${SRC}/lib/group-sessions.ts`]: ['/w/node_modules/yjs/index.js'],
  [`${GEN}/nodes/1.js`]: [`${SRC}/routes/topics/[slug]/+page.svelte`, `${SRC}/routes/topics/[slug]/+page.ts`],
  [`${SRC}/routes/topics/[slug]/+page.svelte`]: [`${SRC}/lib/chart.svelte`, `${SRC}/lib/card.svelte`],
  [`${SRC}/routes/topics/[slug]/+page.ts`]: [`${SRC}/lib/api.ts`],
  [`${GEN}/nodes/2.js`]: [`${SRC}/routes/search/+page.svelte`],
  [`${SRC}/routes/search/+page.svelte`]: [`${SRC}/lib/card.svelte`],
  [`${SRC}/lib/card.svelte`]: [`${SRC}/lib/rich-text.ts`],
  [`${GEN}/nodes/3.js`]: [`${SRC}/routes/groups/[id]/+page.svelte`],
  [`${SRC}/routes/groups/[id]/+page.svelte`]: [`${SRC}/lib/card.svelte`, `${SRC}/lib/group-sessions.ts`],
};

const graph = {
  ids: () =>
    Object.keys(GRAPH).concat([
      '/w/node_modules/svelte/internal.js',
      '/w/node_modules/yjs/index.js',
      '/w/node_modules/minisearch/index.js',
    ]),
  imports: (id: string) => GRAPH[id] ?? [],
};

describe('routeChunkNames', () => {
  const names = routeChunkNames(graph);

  it('puts what the start and the root layout import in the shell, not the entry files themselves', () => {
    for (const id of [
      `${KIT}/client.js`,
      '/w/node_modules/svelte/internal.js',
      `${SRC}/routes/+layout.svelte`,
      `${SRC}/lib/header.svelte`,
      `${SRC}/lib/active-group.ts`,
    ]) {
      expect(names.get(id), id).toBe('shell');
    }
    for (const id of [`${KIT}/entry.js`, `${GEN}/app.js`, `${GEN}/nodes/0.js`, `${GEN}/nodes/1.js`]) {
      expect(names.has(id), id).toBe(false);
    }
  });

  it('shares what two pages outside /groups use, and leaves a page its own files', () => {
    expect(names.get(`${SRC}/lib/card.svelte`)).toBe('pages');
    expect(names.get(`${SRC}/lib/rich-text.ts`)).toBe('pages');
    for (const id of [
      `${SRC}/routes/topics/[slug]/+page.svelte`,
      `${SRC}/routes/topics/[slug]/+page.ts`,
      `${SRC}/lib/chart.svelte`,
      `${SRC}/lib/api.ts`,
    ]) {
      expect(names.has(id), id).toBe(false);
    }
  });

  it('leaves other packages to the bundler, which keeps only what is used of them', () => {
    expect(names.has('/w/packages/core/src/index.ts')).toBe(false);
    expect(names.has('/w/node_modules/minisearch/index.js')).toBe(false);
  });

  it('keeps the group code and whatever only the group pages import out of both', () => {
    expect(names.has(`${SRC}/lib/group-sessions.ts`)).toBe(false);
    expect(names.has('/w/node_modules/yjs/index.js')).toBe(false);
  });

  it('names nothing in a build without SvelteKit’s client entry (the service worker, the server)', () => {
    const server = { ids: () => [`${SRC}/lib/card.svelte`], imports: () => [] };
    expect(routeChunkNames(server).size).toBe(0);
  });
});
