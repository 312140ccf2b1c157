/**
 * Preload hints for the app's pages, put into index.html when it is served for a client-side route. The
 * single-page app only asks for a page's data once its route's modules have loaded and its load function
 * runs; named in the page, the reads start with the first modules instead, and the load's fetch is answered
 * from the preload (same URL, same mode and credentials). Each hint must be a request the page's load makes
 * first, or the browser fetches it twice.
 */

/** A topic's slug as the taxonomy writes them; anything else gets no hint (and is never echoed into HTML). */
const TOPIC_PAGE = /^\/topics\/([a-z0-9]+(?:-[a-z0-9]+)*)\/?$/;

/** The API paths a page's load function reads first (web/src/routes/topics/[slug]/+page.ts for a topic). */
export function pageDataPaths(pathname: string): string[] {
  const topic = TOPIC_PAGE.exec(pathname);
  // The topic, and the topic list its parents' and children's names come from.
  if (topic?.[1]) return [`/api/topics/${topic[1]}`, '/api/topics'];
  return [];
}

/**
 * index.html with the page's data preloaded, the hints ahead of the module preloads so that the reads queue
 * first on the browser's few connections to the server.
 */
export function withPreloads(html: string, pathname: string): string {
  const paths = pageDataPaths(pathname);
  if (paths.length === 0) return html;
  const links = paths.map((p) => `<link href="${p}" rel="preload" as="fetch" crossorigin>`).join('\n');
  const at = html.search(/<link\b[^>]*rel="modulepreload"/);
  if (at >= 0) return `${html.slice(0, at)}${links}\n${html.slice(at)}`;
  const head = html.indexOf('</head>');
  return head >= 0 ? `${html.slice(0, head)}${links}\n${html.slice(head)}` : html;
}
