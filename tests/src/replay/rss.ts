import { addDays, formatRssMidnight, isWeekend } from './calendar.ts';
import { RSS_TYPE, textReply, type Reply, type ReplayContext } from './context.ts';
import { compareStrings, corpusIndex, type CorpusPaper } from './corpus.ts';
import { REPLACE_MAX_DAYS, REPLACE_MIN_DAYS, licenceOf, replacementDay } from './synthetic.ts';
import { element, escapeAttr, escapeText } from './xml.ts';

/**
 * rss.arxiv.org listing feeds for the simulated day. No real feed was ever captured, so the shape follows
 * arXiv's documented format; items come from the corpus (new and cross-lists) plus synthetic replacements.
 */

export type AnnounceType = 'new' | 'cross' | 'replace' | 'replace-cross';

export interface RssItem {
  paper: CorpusPaper;
  type: AnnounceType;
  version: number;
}

const ORDER: Record<AnnounceType, number> = { new: 0, cross: 1, replace: 2, 'replace-cross': 3 };

/** `/rss/cs.AI+cs.LG` → ['cs.AI', 'cs.LG']; null when the path names no category. */
export function parseFeedCategories(path: string): string[] | null {
  const raw = decodeURIComponent(path.slice('/rss/'.length)).replace(/\/+$/, '');
  const categories = raw.split('+').filter((part) => part !== '');
  return categories.length === 0 ? null : categories;
}

/** The items arXiv would announce on `day` for these categories; weekends announce nothing. */
export async function feedItems(day: string, categories: readonly string[]): Promise<RssItem[]> {
  if (isWeekend(day)) return [];
  const wanted = new Set(categories);
  const touches = (paper: CorpusPaper): boolean => paper.categories.some((c) => wanted.has(c));
  const primaryWanted = (paper: CorpusPaper): boolean => wanted.has(paper.categories[0] ?? '');
  const { byDate } = await corpusIndex();

  const items: RssItem[] = [];
  for (const paper of byDate.get(day) ?? []) {
    if (touches(paper)) items.push({ paper, type: primaryWanted(paper) ? 'new' : 'cross', version: 1 });
  }
  for (let back = REPLACE_MIN_DAYS; back <= REPLACE_MAX_DAYS; back += 1) {
    for (const paper of byDate.get(addDays(day, -back)) ?? []) {
      if (touches(paper) && replacementDay(paper) === day) {
        items.push({ paper, type: primaryWanted(paper) ? 'replace' : 'replace-cross', version: 2 });
      }
    }
  }
  return items.sort((a, b) => ORDER[a.type] - ORDER[b.type] || compareStrings(a.paper.id, b.paper.id));
}

function itemXml(item: RssItem, pubDate: string): string {
  const { paper, type, version } = item;
  const versioned = `${paper.id}v${version}`;
  const categories = paper.categories.map((category) => element('category', category)).join('');
  return (
    '<item>' +
    element('title', paper.title) +
    element('link', `https://arxiv.org/abs/${paper.id}`) +
    element('description', `arXiv:${versioned} Announce Type: ${type} \nAbstract: ${paper.abstract}`) +
    `<guid isPermaLink="false">oai:arXiv.org:${escapeText(versioned)}</guid>` +
    categories +
    element('pubDate', pubDate) +
    element('arxiv:announce_type', type) +
    element('dc:rights', licenceOf(paper.id)) +
    element('dc:creator', paper.authors.join(', ')) +
    '</item>'
  );
}

export async function handleRss(ctx: ReplayContext, path: string): Promise<Reply> {
  const categories = parseFeedCategories(path);
  if (!categories) return textReply(404, 'text/plain; charset=utf-8', 'No category given.\n');
  const name = categories.join('+');
  const feedUrl = `http://rss.arxiv.org/rss/${name}`;
  const date = formatRssMidnight(ctx.day);
  const items = await feedItems(ctx.day, categories);
  const xml =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<rss version="2.0" xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/">' +
    '<channel>' +
    element('title', `${name} updates on arXiv.org`) +
    element('link', feedUrl) +
    element('description', `${name} updates on the arXiv.org e-print archive.`) +
    `<atom:link href="${escapeAttr(feedUrl)}" rel="self" type="application/rss+xml"/>` +
    '<docs>http://www.rssboard.org/rss-specification</docs>' +
    '<language>en-us</language>' +
    element('lastBuildDate', date) +
    '<managingEditor>rss-help@arxiv.org</managingEditor>' +
    element('pubDate', date) +
    '<skipDays><day>Saturday</day><day>Sunday</day></skipDays>' +
    items.map((item) => itemXml(item, date)).join('') +
    '</channel></rss>\n';
  return textReply(200, RSS_TYPE, xml);
}
