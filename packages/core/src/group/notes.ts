/**
 * A paper's shared notes: one root Y.Text per paper, Markdown source. A root type, not a Y.Text stored in a
 * map: two members who start the notes of the same paper offline would each create their own Y.Text under
 * the key, and the merge would keep only one of them. Root types of the same name are the same type on
 * every peer, so both texts merge. Rendering and sanitising the Markdown is the client's job.
 */
import type * as Y from 'yjs';
import { NOTE_PREFIX } from './group-doc.ts';
import { checkPaperId } from './input-checks.ts';

export function noteName(paperId: string): string {
  return NOTE_PREFIX + checkPaperId(paperId);
}

/**
 * The live Y.Text to bind an editor to (y-codemirror, y-prosemirror …) and to observe. Editors write with
 * their own origins; wrap edits in `doc.transact` to group them.
 */
export function noteText(doc: Y.Doc, paperId: string): Y.Text {
  return doc.getText(noteName(paperId));
}

/** The notes as Markdown source; "" when nobody has written any. */
export function noteMarkdown(doc: Y.Doc, paperId: string): string {
  return noteText(doc, paperId).toJSON();
}
