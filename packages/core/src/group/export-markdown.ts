/**
 * The queue as one Markdown document, with each paper's abstract, notes and comment threads (replies nested
 * under what they answer), then the group's weekly picks, for archiving a reading group's work or pasting it
 * elsewhere. Titles and names are escaped; notes and comments are Markdown already and go in as written,
 * except that note headings are demoted to sit under their paper's heading.
 */
import type * as Y from 'yjs';
import { commentThreads, type CommentNode } from './comments.ts';
import { meetingOfWeek } from './meetings.ts';
import { memberName } from './members.ts';
import { noteMarkdown } from './notes.ts';
import { instantMs } from './peer-values.ts';
import { pickHistory, type PickRecord } from './pick-history.ts';
import { listQueue, type QueueItem, type QueueStatus } from './queue.ts';
import { sortQueue } from './queue-sort.ts';

/** Backslash-escapes what Markdown would read as markup in inline text. */
export function escapeMarkdown(text: string): string {
  return escapeInline(text.replace(/\s+/g, ' ').trim());
}

function escapeInline(text: string): string {
  return text.replace(/[\\`*_[\]<>#|~]/g, (ch) => `\\${ch}`);
}

/**
 * Paper text (an abstract) as a paragraph: escaped like `escapeMarkdown`, except inside paired `$…$`, which
 * pandoc and most renderers read as TeX, where a backslash added before "_" would change the formula.
 */
export function escapeWithMath(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const pieces = flat.split(/(?<!\\)\$/);
  // An odd count of pieces means the dollars pair up: every second piece is maths.
  if (pieces.length % 2 === 0) return escapeInline(flat);
  return pieces.map((piece, i) => (i % 2 === 1 ? `$${piece}$` : escapeInline(piece))).join('');
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^( {0,3})(#{1,6})(?=[ \t]|$)/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const BLOCK_START = /^ {0,3}([-*+>]|\d+[.)]|#)/;

/**
 * Moves every heading of a Markdown text `by` levels down (at most to level 6): a note's "# Summary" then
 * sits under the paper's heading instead of beside the document's title. Fenced code is left alone; an
 * underlined (setext) heading becomes a "#" heading of its demoted level.
 */
export function demoteHeadings(markdown: string, by: number): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of lines) {
    const opened = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (opened !== undefined && opened[0] === fence[0] && opened.length >= fence.length) fence = null;
      out.push(line);
      continue;
    }
    if (opened !== undefined) {
      fence = opened;
      out.push(line);
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      const level = Math.min(6, (atx[2]?.length ?? 1) + by);
      out.push('#'.repeat(level) + line.slice(atx[0].length));
      continue;
    }
    const underline = SETEXT.exec(line)?.[1];
    const previous = out.at(-1);
    const paragraph =
      previous !== undefined &&
      previous.trim() !== '' &&
      !BLOCK_START.test(previous) &&
      !/^ {4}/.test(previous);
    if (underline !== undefined && paragraph) {
      const level = Math.min(6, (underline[0] === '=' ? 1 : 2) + by);
      out[out.length - 1] = `${'#'.repeat(level)} ${previous.trim()}`;
      continue;
    }
    out.push(line);
  }
  return out.join('\n');
}

/** "2026-03-12 10:00 UTC". */
function when(iso: string): string {
  const ms = instantMs(iso);
  if (ms === null) return iso;
  const s = new Date(ms).toISOString();
  return `${s.slice(0, 10)} ${s.slice(11, 16)} UTC`;
}

function commentLines(doc: Y.Doc, node: CommentNode, depth: number): string[] {
  const indent = '  '.repeat(depth);
  const time = node.editedAt && !node.deleted ? `${when(node.at)}, edited` : when(node.at);
  const body = node.deleted ? ['_(deleted)_'] : node.text.split('\n');
  const lines = [
    `${indent}- **${escapeMarkdown(memberName(doc, node.author))}** (${time}): ${body[0] ?? ''}`,
    // Continuation lines indented under the bullet stay part of the comment.
    ...body.slice(1).map((line) => (line.trim() === '' ? '' : `${indent}  ${line}`)),
  ];
  for (const reply of node.replies) lines.push(...commentLines(doc, reply, depth + 1));
  return lines;
}

function versionLine(item: QueueItem): string | null {
  const v = item.versions;
  if (!v.hasNewerVersion || v.latestVersion === null || v.baselineVersion === null) return null;
  const what = v.discussedVersion !== null ? 'discussed' : 'saved';
  return `- **Newer version:** v${v.latestVersion} is out; the group ${what} v${v.baselineVersion}.`;
}

function itemSection(doc: Y.Doc, item: QueueItem): string {
  const p = item.paper;
  const version = p.version === null ? '' : `v${p.version}`;
  const lines = [`## ${escapeMarkdown(p.title)}`, ''];
  if (p.authors.length > 0) lines.push(`- **Authors:** ${escapeMarkdown(p.authors.join(', '))}`);
  lines.push(`- **arXiv:** [${p.id}${version}](${p.links.abs}) · [PDF](${p.links.pdf})`);
  const listed = [p.listingDate ? `listed ${p.listingDate}` : null, p.primaryCategory || null].filter(
    Boolean,
  );
  if (listed.length > 0) lines.push(`- **Listing:** ${escapeMarkdown(listed.join(' · '))}`);
  if (p.tags.length > 0) lines.push(`- **Topics:** ${escapeMarkdown(p.tags.map((t) => t.name).join(', '))}`);
  if (p.codeLinks.length > 0) lines.push(`- **Code:** ${p.codeLinks.map((u) => `<${u}>`).join(' ')}`);
  const added = `added by ${escapeMarkdown(memberName(doc, item.addedBy))} on ${when(item.addedAt)}`;
  lines.push(`- **Status:** ${item.status} · ${added}`);
  const newer = versionLine(item);
  if (newer) lines.push(newer);
  const abstract = p.abstract.trim();
  if (abstract !== '') lines.push('', '### Abstract', '', escapeWithMath(abstract));
  // The paper is "##" and its notes "###": the note's own "#" headings go below that.
  const notes = demoteHeadings(noteMarkdown(doc, p.id), 3).trim();
  if (notes !== '') lines.push('', '### Notes', '', notes);
  const threads = commentThreads(doc, p.id);
  if (threads.length > 0) {
    lines.push('', '### Comments', '');
    for (const thread of threads) lines.push(...commentLines(doc, thread, 0));
  }
  return lines.join('\n');
}

function pickLine(doc: Y.Doc, pick: PickRecord): string {
  const votes = `${pick.approvals} ${pick.approvals === 1 ? 'vote' : 'votes'}`;
  const closed = pick.atDeadline
    ? `voting closed at the deadline, ${when(pick.closedAt)}`
    : `closed by ${escapeMarkdown(memberName(doc, pick.closedBy))} on ${when(pick.closedAt)}`;
  const discussed =
    pick.discussedAt === null
      ? ''
      : `; discussed ${when(pick.discussedAt)}` +
        (pick.discussedBy === null
          ? ''
          : ` (marked by ${escapeMarkdown(memberName(doc, pick.discussedBy))})`);
  // The meeting's presenter as recorded once it was held (meetings-presenters.ts), not today's rotation.
  const meeting = meetingOfWeek(doc, pick.week);
  const presented = meeting?.presenter
    ? ` · presented by ${escapeMarkdown(memberName(doc, meeting.presenter))} at the meeting of ${meeting.date}`
    : '';
  return `- **Week of ${pick.week}:** ${escapeMarkdown(pick.title)} (arXiv ${pick.paperId}) · ${votes}, ${closed}${discussed}${presented}`;
}

export interface MarkdownExportOptions {
  /** Default: the whole queue, by status (reading, queued, discussed, archived). */
  items?: readonly QueueItem[];
  /** Only the papers with one of these statuses (say, only "discussed"); default: every status. */
  statuses?: readonly QueueStatus[];
  /** The document's heading; default "Reading queue". */
  title?: string;
}

export function exportMarkdown(doc: Y.Doc, options: MarkdownExportOptions = {}): string {
  const all = options.items ?? sortQueue(listQueue(doc), 'status');
  const statuses = options.statuses;
  const items = statuses ? all.filter((item) => statuses.includes(item.status)) : all;
  const sections = items.map((item) => itemSection(doc, item));
  const heading = `# ${escapeMarkdown(options.title ?? 'Reading queue')}`;
  const empty = statuses ? 'No paper in the queue has the chosen status.' : 'The queue is empty.';
  const picks = pickHistory(doc);
  const history =
    picks.length > 0 ? [['## Weekly picks', '', ...picks.map((p) => pickLine(doc, p))].join('\n')] : [];
  return [heading, ...(sections.length > 0 ? sections : [empty]), ...history].join('\n\n') + '\n';
}
