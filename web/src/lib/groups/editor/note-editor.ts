/**
 * The shared notes editor: CodeMirror 6 bound to a paper's root Y.Text by y-codemirror.next. Loaded only
 * through a dynamic import (NoteEditor.svelte), so pages without notes never download CodeMirror.
 *
 * - Sync: y-codemirror applies each CodeMirror change to the Y.Text and each remote change to the view, so
 *   concurrent typing merges character by character (the CRDT layout is core's: one root Y.Text a paper).
 * - Cursors: each member's caret and selection travel in the group's awareness (`cursor`, `user`), drawn
 *   in the member's own colour with their name.
 * - Undo: a Y.UndoManager per editor tracks only this editor's own transactions, so Ctrl+Z takes back what
 *   this member typed and never a co-author's words.
 * - Styles: the editor lives in a shadow root of its own (editor-root.ts), the one place where CodeMirror's
 *   styles get past the app's Content-Security-Policy.
 */
import { defaultKeymap, indentWithTab } from '@codemirror/commands';
import { markdownLanguage } from '@codemirror/lang-markdown';
import { defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState } from '@codemirror/state';
import { EditorView, keymap, placeholder, type KeyBinding } from '@codemirror/view';
import { yCollab, yUndoManagerKeymap } from 'y-codemirror.next';
import type { Awareness } from 'y-protocols/awareness';
import * as Y from 'yjs';
import { editorRoot, labelFrom } from './editor-root.ts';
import { remoteCursorTheme, userField, type EditorUser } from './editor-user.ts';

export interface NoteEditorOptions {
  text: Y.Text;
  /** The group's awareness; null draws no cursors (and sends none). */
  awareness: Awareness | null;
  user: EditorUser;
  readOnly: boolean;
  /** Labels the editable area for assistive technology (the id of the visible label, outside the editor). */
  labelledBy: string;
  /** The id of the hint that describes it. */
  describedBy: string;
}

export interface NoteEditorHandle {
  readonly view: EditorView;
  setReadOnly(readOnly: boolean): void;
  undo(): boolean;
  redo(): boolean;
  destroy(): void;
}

const editable = (readOnly: boolean) => [
  EditorState.readOnly.of(readOnly),
  EditorView.editable.of(!readOnly),
];

/** Esc leaves the editor with the text kept, as it leaves every text field in the app (keyboard/). */
const leaveOnEscape: KeyBinding = {
  key: 'Escape',
  run: (view) => {
    view.contentDOM.blur();
    return true;
  },
};

const layout = EditorView.theme({
  '&': {
    minHeight: '16rem',
    border: '1px solid var(--border)',
    borderRadius: '6px',
    background: 'var(--surface)',
    color: 'var(--text)',
    fontSize: '0.9rem',
  },
  '&.cm-focused': { outline: '2px solid var(--accent)', outlineOffset: '1px' },
  '.cm-scroller': { fontFamily: 'var(--font-mono)', lineHeight: '1.5', minHeight: '16rem' },
  '.cm-content': { padding: '0.45rem 0' },
  '.cm-line': { padding: '0 0.6rem' },
  '.cm-placeholder': { color: 'var(--muted)' },
});

export function mountNoteEditor(parent: HTMLElement, options: NoteEditorOptions): NoteEditorHandle {
  const { text, awareness } = options;
  // Only this editor's own writes are undone: y-codemirror adds its sync origin as the tracked one.
  const undoManager = new Y.UndoManager(text, { trackedOrigins: new Set() });
  if (awareness) awareness.setLocalStateField('user', userField(options.user));
  const access = new Compartment();
  const root = editorRoot(parent);
  const view = new EditorView({
    root,
    parent: root,
    state: EditorState.create({
      doc: text.toJSON(),
      extensions: [
        keymap.of([...yUndoManagerKeymap, ...defaultKeymap, indentWithTab, leaveOnEscape]),
        markdownLanguage,
        syntaxHighlighting(defaultHighlightStyle),
        EditorView.lineWrapping,
        placeholder('Write the group’s notes here…'),
        yCollab(text, awareness, { undoManager }),
        remoteCursorTheme,
        layout,
        access.of(editable(options.readOnly)),
        EditorView.contentAttributes.of({
          'data-testid': 'note-editor',
          spellcheck: 'true',
        }),
      ],
    }),
  });
  labelFrom(view.contentDOM, parent.ownerDocument, options.labelledBy, options.describedBy);
  return {
    view,
    setReadOnly(readOnly) {
      view.dispatch({ effects: access.reconfigure(editable(readOnly)) });
    },
    undo: () => undoManager.undo() !== null,
    redo: () => undoManager.redo() !== null,
    destroy() {
      view.destroy();
      root.host.remove();
      undoManager.destroy();
      // The caret left with the editor: the others stop drawing it.
      awareness?.setLocalStateField('cursor', null);
    },
  };
}
