import { describe, expect, it } from 'vitest';
import { QuireError } from '../errors.ts';
import { parseRssFeed } from './rss.ts';

// No real rss.arxiv.org capture exists in shared/, so the feed is built here from the documented format.
interface ItemSpec {
  id: string;
  type: string;
  title: string;
  categories: string[];
  creator: string;
  pubDate?: string;
}

function item({ id, type, title, categories, creator, pubDate }: ItemSpec): string {
  return `
    <item>
      <title>${title}</title>
      <link>https://arxiv.org/abs/${id.replace(/v\d+$/, '')}</link>
      <description>arXiv:${id} Announce Type: ${type} 
Abstract: An abstract about ${title} &amp; more.</description>
      <guid isPermaLink="false">oai:arXiv.org:${id}</guid>
      ${categories.map((c) => `<category>${c}</category>`).join('')}
      ${pubDate ? `<pubDate>${pubDate}</pubDate>` : ''}
      <arxiv:announce_type>${type}</arxiv:announce_type>
      <dc:rights>http://creativecommons.org/licenses/by/4.0/</dc:rights>
      <dc:creator>${creator}</dc:creator>
    </item>`;
}

function feed(items: string[], pubDate = 'Mon, 16 Mar 2026 00:00:00 -0400'): string {
  return `<?xml version='1.0' encoding='UTF-8'?>
<rss xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" version="2.0">
  <channel>
    <title>cs.AI updates on arXiv.org</title>
    <link>http://rss.arxiv.org/rss/cs.AI</link>
    <description>cs.AI updates on the arXiv.org e-print archive.</description>
    <atom:link href="http://rss.arxiv.org/rss/cs.AI" rel="self" type="application/rss+xml"/>
    <docs>http://www.rssboard.org/rss-specification</docs>
    <language>en-us</language>
    <lastBuildDate>${pubDate}</lastBuildDate>
    <managingEditor>rss-help@arxiv.org</managingEditor>
    <pubDate>${pubDate}</pubDate>
    <skipDays><day>Saturday</day><day>Sunday</day></skipDays>
    ${items.join('')}
  </channel>
</rss>`;
}

const ITEMS: ItemSpec[] = [
  {
    id: '2603.12268v1',
    type: 'new',
    title: 'A Holistic Framework for Automated Configuration Recommendation',
    categories: ['cs.DC', 'cs.LG'],
    creator: 'Anson Bastos, Shreeya Venneti, Rujia Wang',
    pubDate: 'Mon, 16 Mar 2026 00:00:00 -0400',
  },
  {
    id: '2603.12001v1',
    type: 'cross',
    title: 'Crossed',
    categories: ['cs.CL', 'cs.AI'],
    creator: 'Ann Lee and Bo Chen',
  },
  { id: '2511.01234v3', type: 'replace', title: 'Replaced', categories: ['cs.AI'], creator: 'Cy Dee' },
  {
    id: 'hep-th/9901001v2',
    type: 'replace-cross',
    title: 'Old',
    categories: ['hep-th', 'cs.AI'],
    creator: 'Ed Witten',
  },
  { id: '2603.19999v1', type: 'withdrawn', title: 'Unknown kind', categories: ['cs.AI'], creator: 'Fay Gee' },
];

describe('parseRssFeed', () => {
  const parsed = parseRssFeed(feed(ITEMS.map(item)), 'https://rss.arxiv.org/rss/cs.AI');

  it('reads the channel', () => {
    expect(parsed.title).toBe('cs.AI updates on arXiv.org');
    // The offset is -0400; the day is read in it, not converted to UTC.
    expect(parsed.pubDate).toBe('2026-03-16');
  });

  it('keeps the four known announce types and counts the rest as skipped', () => {
    expect(parsed.items.map((i) => i.announceType)).toEqual(['new', 'cross', 'replace', 'replace-cross']);
    expect(parsed.skipped).toBe(1);
  });

  it('maps a new item', () => {
    expect(parsed.items[0]).toEqual({
      announceType: 'new',
      listingDate: '2026-03-16',
      paper: {
        id: '2603.12268',
        title: 'A Holistic Framework for Automated Configuration Recommendation',
        abstract: 'An abstract about A Holistic Framework for Automated Configuration Recommendation & more.',
        authors: [
          { name: 'Anson Bastos', affiliations: [] },
          { name: 'Shreeya Venneti', affiliations: [] },
          { name: 'Rujia Wang', affiliations: [] },
        ],
        categories: ['cs.DC', 'cs.LG'],
        versions: [{ version: 1, submitted: null, size: null }],
        listingDate: '2026-03-16',
        listingDateEstimated: false,
        license: 'http://creativecommons.org/licenses/by/4.0/',
      },
    });
  });

  it('dates items without pubDate by the channel and splits "and" authors', () => {
    const cross = parsed.items[1];
    expect(cross?.listingDate).toBe('2026-03-16');
    expect(cross?.paper.listingDate).toBe('2026-03-16');
    expect(cross?.paper.authors).toEqual([
      { name: 'Ann Lee', affiliations: [] },
      { name: 'Bo Chen', affiliations: [] },
    ]);
  });

  it('does not give replacements a listing date', () => {
    const [replace, replaceCross] = [parsed.items[2], parsed.items[3]];
    expect(replace?.listingDate).toBe('2026-03-16');
    expect(replace?.paper.listingDate).toBeUndefined();
    expect(replace?.paper.versions).toEqual([{ version: 3, submitted: null, size: null }]);
    expect(replaceCross?.paper.id).toBe('hep-th/9901001');
    expect(replaceCross?.paper.categories).toEqual(['hep-th', 'cs.AI']);
    expect(replaceCross?.paper.listingDate).toBeUndefined();
  });

  it('reads an item pubDate in its own offset', () => {
    const late = { ...ITEMS[0], pubDate: 'Tue, 17 Mar 2026 23:30:00 -0400' } as ItemSpec;
    expect(parseRssFeed(feed([item(late)])).items[0]?.listingDate).toBe('2026-03-17');
  });

  it('passes an unreadable guid on as found and falls back to the channel for an unreadable pubDate', () => {
    const odd = { ...ITEMS[0], id: 'not-an-id', pubDate: 'sometime' } as ItemSpec;
    const [only] = parseRssFeed(feed([item(odd)])).items;
    expect(only?.paper.id).toBe('oai:arXiv.org:not-an-id');
    expect(only?.listingDate).toBe('2026-03-16');
  });

  it('accepts an empty weekend feed', () => {
    const empty = parseRssFeed(feed([], 'Sat, 21 Mar 2026 00:00:00 -0400'));
    expect(empty).toEqual({
      title: 'cs.AI updates on arXiv.org',
      pubDate: '2026-03-21',
      items: [],
      skipped: 0,
    });
  });

  it('throws malformed-xml for broken or foreign documents', () => {
    const whole = feed(ITEMS.map(item));
    for (const bad of [
      whole.slice(0, whole.length - 20),
      '<rss><channel><item></channel></rss>',
      '',
      '<feed/>',
    ]) {
      expect(() => parseRssFeed(bad)).toThrow(QuireError);
      expect(() => parseRssFeed(bad)).toThrow(expect.objectContaining({ code: 'malformed-xml' }));
    }
  });
});
