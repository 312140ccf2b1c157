import { createHash } from 'node:crypto';
import { isoSeconds } from './calendar.ts';
import { ATOM_TYPE, textReply, type Reply, type ReplayContext } from './context.ts';
import { corpusIndex, type CorpusPaper } from './corpus.ts';
import { apiQueryKey, loadGoldenFixtures } from './golden.ts';
import { v1SubmittedMs } from './synthetic.ts';
import { escapeAttr, escapeText } from './xml.ts';

/**
 * export.arxiv.org/api/query: recorded 2026 bodies when the query is one that was recorded, otherwise a
 * feed in the same 2026 shape generated from the corpus. Only id_list lookups are generated; a
 * search_query without id_list answers an empty feed.
 */

const NEW_STYLE = /^\d{4}\.\d{4,5}(v\d+)?$/;
const OLD_STYLE = /^[a-z-]+(\.[A-Z]{2})?\/\d{7}(v\d+)?$/;

export async function handleApiQuery(ctx: ReplayContext, params: URLSearchParams): Promise<Reply> {
  const recorded = (await loadGoldenFixtures()).find((fixture) => fixture.key === apiQueryKey(params));
  if (recorded) return textReply(recorded.status, ATOM_TYPE, recorded.body);

  const ids = (params.get('id_list') ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  const malformed = ids.find((id) => !NEW_STYLE.test(id) && !OLD_STYLE.test(id));
  if (malformed !== undefined) return errorFeed(ctx, malformed);

  const start = nonNegative(params.get('start'), 0);
  const maxResults = nonNegative(params.get('max_results'), 10);
  const { byId } = await corpusIndex();
  const found: CorpusPaper[] = [];
  for (const id of ids) {
    // The corpus knows v1 only, so a later version is as unknown as a missing paper.
    const match = /^(.*?)(?:v(\d+))?$/.exec(id);
    const paper = byId.get(match?.[1] ?? id);
    if (paper && (match?.[2] === undefined || match[2] === '1')) found.push(paper);
  }
  const page = found.slice(start, start + maxResults);
  return textReply(200, ATOM_TYPE, feedXml(ctx, params, start, maxResults, found.length, page));
}

function nonNegative(value: string | null, fallback: number): number {
  const parsed = value === null ? NaN : Number(value);
  return Number.isSafeInteger(parsed) && parsed >= 0 ? parsed : fallback;
}

const FEED_OPEN =
  "<?xml version='1.0' encoding='UTF-8'?>\n" +
  '<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns="http://www.w3.org/2005/Atom">\n';

function feedXml(
  ctx: ReplayContext,
  params: URLSearchParams,
  start: number,
  maxResults: number,
  total: number,
  papers: readonly CorpusPaper[],
): string {
  const search = params.get('search_query') ?? '';
  const idList = params.get('id_list') ?? '';
  const title = `search_query=${search}&id_list=${idList}&start=${start}&max_results=${maxResults}`;
  const link = `https://arxiv.org/api/query?search_query=${search}&start=${start}&max_results=${maxResults}&id_list=${idList}`;
  // arXiv's feed id is a hash of the query; a sha1 in unpadded base64 has the same 27-character look.
  const feedId = createHash('sha1').update(title).digest('base64').replace(/=+$/, '');
  return (
    FEED_OPEN +
    `  <id>https://arxiv.org/api/${feedId}</id>\n` +
    `  <title>arXiv Query: ${escapeText(title)}</title>\n` +
    `  <updated>${isoSeconds(ctx.nowMs())}</updated>\n` +
    `  <link href="${escapeAttr(link)}" type="application/atom+xml"/>\n` +
    `  <opensearch:itemsPerPage>${maxResults}</opensearch:itemsPerPage>\n` +
    `  <opensearch:totalResults>${total}</opensearch:totalResults>\n` +
    `  <opensearch:startIndex>${start}</opensearch:startIndex>\n` +
    papers.map(entryXml).join('') +
    '</feed>\n'
  );
}

function entryXml(paper: CorpusPaper): string {
  const v1 = `${paper.id}v1`;
  const published = isoSeconds(v1SubmittedMs(paper));
  const categories = paper.categories
    .map((term) => `    <category term="${escapeAttr(term)}" scheme="http://arxiv.org/schemas/atom"/>\n`)
    .join('');
  const authors = paper.authors
    .map((name) => `    <author>\n      <name>${escapeText(name)}</name>\n    </author>\n`)
    .join('');
  return (
    '  <entry>\n' +
    `    <id>http://arxiv.org/abs/${v1}</id>\n` +
    `    <title>${escapeText(paper.title)}</title>\n` +
    `    <updated>${published}</updated>\n` +
    `    <link href="https://arxiv.org/abs/${v1}" rel="alternate" type="text/html"/>\n` +
    `    <link href="https://arxiv.org/pdf/${v1}" rel="related" type="application/pdf" title="pdf"/>\n` +
    `    <summary>${escapeText(paper.abstract)}</summary>\n` +
    categories +
    `    <published>${published}</published>\n` +
    (paper.comment === null ? '' : `    <arxiv:comment>${escapeText(paper.comment)}</arxiv:comment>\n`) +
    `    <arxiv:primary_category term="${escapeAttr(paper.categories[0] ?? '')}"/>\n` +
    authors +
    '  </entry>\n'
  );
}

/** The 400 feed arXiv answers for an id it cannot parse (recorded for `id_list=abc`). */
function errorFeed(ctx: ReplayContext, badId: string): Reply {
  const now = isoSeconds(ctx.nowMs());
  const anchor = `https://arxiv.org/api/errors#incorrect_id_format_for_${badId}`;
  const xml =
    FEED_OPEN +
    '  <id>https://arxiv.org/</id>\n' +
    '  <title>arXiv Search Results</title>\n' +
    `  <updated>${now}</updated>\n` +
    '  <opensearch:itemsPerPage>1</opensearch:itemsPerPage>\n' +
    '  <opensearch:totalResults>1</opensearch:totalResults>\n' +
    '  <opensearch:startIndex>0</opensearch:startIndex>\n' +
    '  <entry>\n' +
    `    <id>${escapeText(anchor)}</id>\n` +
    '    <title>Error</title>\n' +
    `    <updated>${now}</updated>\n` +
    `    <link href="${escapeAttr(anchor)}" rel="alternate" type="text/html"/>\n` +
    `    <summary>incorrect id format for ${escapeText(badId)}</summary>\n` +
    '    <author>\n      <name>arXiv api core</name>\n    </author>\n' +
    '  </entry>\n' +
    '</feed>\n';
  return textReply(400, ATOM_TYPE, xml);
}
