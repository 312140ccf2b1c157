/**
 * How a member appears in the others' editors: y-codemirror.next reads the awareness field `user`
 * ({ name, color, colorLight }) to draw a remote caret, its name tag and the selection behind it.
 */
import { EditorView } from '@codemirror/view';

export interface EditorUser {
  name: string;
  /** The member's colour, `#rrggbb` (core members.ts). */
  colour: string;
}

const HEX = /^#[0-9a-fA-F]{6}$/;
const FALLBACK = '#808080';

/** The awareness field for this member: the selection is the colour at a fifth of its strength. */
export function userField(user: EditorUser): { name: string; color: string; colorLight: string } {
  const color = HEX.test(user.colour) ? user.colour : FALLBACK;
  return { name: user.name.trim().slice(0, 80) || 'A member', color, colorLight: `${color}33` };
}

/**
 * The name tag shows all the time, not only on hover: two people editing one note need to see who is
 * where without pointing at a caret first.
 */
export const remoteCursorTheme = EditorView.theme({
  '.cm-ySelectionInfo': {
    opacity: 0.9,
    fontFamily: 'var(--font-ui)',
    borderRadius: '3px 3px 3px 0',
  },
});
