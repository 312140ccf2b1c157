import type { Plugin } from 'vite';

/**
 * Fewer files per page. Left to itself the bundler gives every set of pages sharing modules a chunk of its
 * own: a topic page asked for 21 scripts and 8 style sheets once the app had started, over the browser's six
 * connections, on a machine where each request costs the browser, the server and the page CPU time. Here:
 *
 * - "shell": everything the app's start and its root layout import statically (every page needs it before
 *   its first render). The start script imports it, so the page names it for preloading: it loads with the
 *   first scripts instead of after the app has started.
 * - "pages": what two or more of the pages outside /groups share, beyond the shell.
 *
 * The rest stays as the bundler splits it: a page's own modules in its node's file, the group pages' modules,
 * and the code loaded on demand (the group code, the note editor, offline search), which no page imports
 * statically and which therefore stays out of both.
 */

interface ModuleGraph {
  /** A module's static imports only: what it imports on demand stays out of every group. */
  imports(id: string): readonly string[];
  ids(): Iterable<string>;
}

/** SvelteKit's generated client files: the app's manifest and one file per layout and page. */
const APP = /[\\/]generated[\\/]client-optimized[\\/]app\.js$/;
const NODE = /[\\/]generated[\\/]client-optimized[\\/]nodes[\\/](\d+)\.js$/;
/** SvelteKit's client entry (entry/start). */
const KIT_ENTRY = /[\\/]@sveltejs[\\/]kit[\\/]src[\\/]runtime[\\/]client[\\/]entry\.js$/;
const GROUP_ROUTE = /[\\/]src[\\/]routes[\\/]groups[\\/]/;
const ROUTE_FILE = /[\\/]src[\\/]routes[\\/].*\+(page|layout|error)\.(svelte|ts|js)$/;
/**
 * Only the app's own code and the framework's are grouped. A group keeps a module whole, not what tree-shaking
 * would keep of it: the shell took all of MiniSearch through @quire/core's index (CoreError is all the
 * search session imports from it), which the bundler, splitting core as it likes, leaves out.
 */
const GROUPABLE =
  /[\\/]web[\\/]src[\\/]|[\\/]node_modules[\\/](svelte|@sveltejs[\\/]kit|esm-env|clsx|devalue)[\\/]/;

function closure(graph: ModuleGraph, roots: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const todo = [...roots];
  for (let id = todo.pop(); id !== undefined; id = todo.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    todo.push(...graph.imports(id));
  }
  return seen;
}

/** Each module's chunk name: "shell", "pages", or none (the bundler's own split). */
export function routeChunkNames(graph: ModuleGraph): Map<string, 'shell' | 'pages'> {
  const all = [...graph.ids()];
  const nodes = all.filter((id) => NODE.test(id));
  const entries = all.filter((id) => APP.test(id) || KIT_ENTRY.test(id));
  const names = new Map<string, 'shell' | 'pages'>();
  const rootLayout = nodes.find((id) => NODE.exec(id)?.[1] === '0');
  if (!rootLayout || entries.length === 0) return names;
  // Entry files must stay in their own chunks (SvelteKit imports them by name); so do the pages' own files,
  // which would otherwise be moved into the shared chunk of whatever else imports them.
  const own = (id: string) => NODE.test(id) || APP.test(id) || KIT_ENTRY.test(id);
  for (const id of closure(graph, [...entries, rootLayout])) {
    if (!own(id) && GROUPABLE.test(id)) names.set(id, 'shell');
  }
  const pageUses = new Map<string, number>();
  for (const node of nodes) {
    if (node === rootLayout) continue;
    const files = graph.imports(node);
    if (files.some((f) => GROUP_ROUTE.test(f))) continue;
    for (const id of closure(graph, [node])) {
      if (own(id) || names.has(id) || ROUTE_FILE.test(id) || !GROUPABLE.test(id)) continue;
      pageUses.set(id, (pageUses.get(id) ?? 0) + 1);
    }
  }
  for (const [id, uses] of pageUses) if (uses >= 2) names.set(id, 'pages');
  return names;
}

/** The client build's chunking by `routeChunkNames`, worked out once the module graph is complete. */
export function routeChunks(): Plugin {
  let names = new Map<string, 'shell' | 'pages'>();
  return {
    name: 'quire-route-chunks',
    apply: 'build',
    buildEnd() {
      names = routeChunkNames({
        ids: () => this.getModuleIds(),
        imports: (id) => {
          const info = this.getModuleInfo(id);
          // Listed apart from the static imports, but kept out explicitly: a first build pulled MiniSearch
          // (imported on demand by the search session) into the shell.
          const onDemand = new Set(info?.dynamicallyImportedIds ?? []);
          return (info?.importedIds ?? []).filter((i) => !onDemand.has(i));
        },
      });
    },
    outputOptions(options) {
      // SvelteKit's client build writes ES modules ('esm'); its inline bundle (an IIFE) has no chunks.
      if (options.format === 'iife') return null;
      return {
        ...options,
        codeSplitting: {
          groups: [
            { name: 'shell', priority: 2, test: (id: string) => names.get(id) === 'shell' },
            { name: 'pages', priority: 1, test: (id: string) => names.get(id) === 'pages' },
          ],
        },
      };
    },
  };
}
