/**
 * The queue as one Markdown document, with each paper's notes and comment threads, for archiving a
 * reading group's work or pasting it elsewhere. Titles and names are escaped; notes and comments are
 * Markdown already and go in as written.
 */
import type * as Y from 'yjs';
import { commentThreads, type CommentNode } from './comments.ts';
import { memberName } from './members.ts';
import { noteMarkdown } from './notes.ts';
import { instantMs } from './peer-values.ts';
import { listQueue, type QueueItem } from './queue.ts';
import { sortQueue } from './queue-sort.ts';

/** Backslash-escapes what Markdown would read as markup in inline text. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\`*_[\]<>#|~]/g, (ch) => `\\${ch}`);
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
  const notes = noteMarkdown(doc, p.id).trim();
  if (notes !== '') lines.push('', '### Notes', '', notes);
  const threads = commentThreads(doc, p.id);
  if (threads.length > 0) {
    lines.push('', '### Comments', '');
    for (const thread of threads) lines.push(...commentLines(doc, thread, 0));
  }
  return lines.join('\n');
}

export interface MarkdownExportOptions {
  /** Default: the whole queue, by status (reading, queued, discussed, archived). */
  items?: readonly QueueItem[];
  /** The document's heading; default "Reading queue". */
  title?: string;
}

export function exportMarkdown(doc: Y.Doc, options: MarkdownExportOptions = {}): string {
  const items = options.items ?? sortQueue(listQueue(doc), 'status');
  const sections = items.map((item) => itemSection(doc, item));
  const heading = `# ${escapeMarkdown(options.title ?? 'Reading queue')}`;
  return [heading, ...(sections.length > 0 ? sections : ['The queue is empty.'])].join('\n\n') + '\n';
}
