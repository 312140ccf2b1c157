/**
 * arXiv's daily listing feeds (RSS 2.0 from rss.arxiv.org). Each item says how the paper was announced
 * (`arxiv:announce_type`); the feed's pubDate is the listing day. Feeds are empty at weekends and on
 * holidays, which is a normal, item-less feed.
 *
 * Items with an announce type other than new, cross, replace and replace-cross are skipped and counted
 * in `skipped`: guessing whether an unknown kind is a new paper would corrupt the momentum counts, and
 * the count makes a format change visible in the ingest log.
 */
import {
  countsAsNew,
  parseArxivIdLenient,
  rfc2822Day,
  splitAuthorLine,
  type AnnounceType,
  type RawPaper,
} from '@quire/core';
import { QuireError } from '../errors.ts';
import { readOrNull } from './read-or-null.ts';
import { child, createXmlParser, line, list, optLine, optText, parseXmlDocument, text } from './xml.ts';

export interface RssItem {
  announceType: AnnounceType;
  /** YYYY-MM-DD of the item's pubDate (else the channel's), read in the date's own offset. */
  listingDate: string;
  paper: RawPaper;
}

export interface RssFeed {
  title: string;
  /** YYYY-MM-DD of the channel pubDate in its own offset; null when the feed gives none. */
  pubDate: string | null;
  items: RssItem[];
  /** Items dropped for an unknown announce type. */
  skipped: number;
}

const ANNOUNCE_TYPES: ReadonlySet<string> = new Set<AnnounceType>([
  'new',
  'cross',
  'replace',
  'replace-cross',
]);

const parser = createXmlParser(['item', 'category']);

// "arXiv:2603.12268v1 Announce Type: new \nAbstract: …": the abstract is what follows the marker.
const ABSTRACT_MARKER = /(?:^|\s)Abstract:\s*/;

export function parseRssFeed(xml: string, source = 'the arXiv RSS feed'): RssFeed {
  const { node: rss } = parseXmlDocument(parser, xml, { source, kind: 'an RSS feed', roots: ['rss'] });
  const channel = child(rss, 'channel');
  if (channel === undefined) {
    throw new QuireError('malformed-xml', `${source} has no <channel>; it is not an arXiv RSS feed.`);
  }
  const channelDay = dayOf(child(channel, 'pubDate')) ?? dayOf(child(channel, 'lastBuildDate'));
  const feed: RssFeed = { title: line(child(channel, 'title')), pubDate: channelDay, items: [], skipped: 0 };

  for (const item of list(child(channel, 'item'))) {
    const announceType = text(child(item, 'announce_type')).trim();
    if (!isAnnounceType(announceType)) {
      feed.skipped++;
      continue;
    }
    const listingDate = dayOf(child(item, 'pubDate')) ?? channelDay;
    if (listingDate === null) {
      throw new QuireError(
        'malformed-xml',
        `${source} dates neither its items nor its channel, so the listing day is unknown; it is not an arXiv listing feed.`,
      );
    }
    feed.items.push({ announceType, listingDate, paper: itemToPaper(item, announceType, listingDate) });
  }
  return feed;
}

function isAnnounceType(value: string): value is AnnounceType {
  return ANNOUNCE_TYPES.has(value);
}

/** The day of an RFC 2822 date in its own offset; null when absent or unreadable, so the caller falls back. */
function dayOf(node: unknown): string | null {
  const value = optText(node);
  return value === null ? null : readOrNull(rfc2822Day, value);
}

function itemToPaper(item: unknown, announceType: AnnounceType, listingDate: string): RawPaper {
  // The guid is "oai:arXiv.org:2603.12268v1"; an unreadable id is passed on for normalisePaper to reject.
  const guid = text(child(item, 'guid')).trim();
  const ref = parseArxivIdLenient(guid !== '' ? guid : text(child(item, 'link')));
  const description = text(child(item, 'description'));
  const marker = ABSTRACT_MARKER.exec(description);
  return {
    id: ref.id,
    title: line(child(item, 'title')),
    abstract: marker ? description.slice(marker.index + marker[0].length).trim() : description.trim(),
    authors: splitAuthorLine(text(child(item, 'creator'))),
    categories: list(child(item, 'category'))
      .map(line)
      .filter((c) => c !== ''),
    // The version in the guid is the one announced; its submission time is not in the feed.
    versions: ref.version === null ? [] : [{ version: ref.version, submitted: null, size: null }],
    // A replacement's feed day is not the day the paper was first listed.
    ...(countsAsNew(announceType) ? { listingDate, listingDateEstimated: false } : {}),
    license: optLine(child(item, 'rights')),
  };
}
