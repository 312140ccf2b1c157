/**
 * Where the note editor is mounted: a shadow root of its own, inside the page's host element.
 *
 * The app's Content-Security-Policy allows no inline `<style>` (style-src 'self'). Mounted in the document,
 * CodeMirror's style-mod writes every editor style (its base theme, the themes here, the highlighting)
 * into a `<style>` element in the head, which the policy blocks: the editable area then had no
 * `white-space: pre-wrap`, and Chromium's contenteditable, keeping a space visible where normal white
 * space would collapse it (after a highlighted `>` or `*em*`, beside another member's caret), typed it as
 * U+00A0, which the note stored. In a shadow root style-mod adopts a constructed style sheet instead
 * (CSSOM, which style-src does not govern), so the styles apply and a typed space stays U+0020, with no
 * rewriting of what anyone typed or pasted. The app's custom properties (colours, fonts) still reach the
 * editor's themes: they inherit into the shadow tree.
 */

export function editorRoot(parent: HTMLElement): ShadowRoot {
  const shell = parent.ownerDocument.createElement('div');
  parent.append(shell);
  const root = shell.attachShadow({ mode: 'open' });
  // Outside the shadow root a key typed in the editor seems to come from this plain <div>, so the app's
  // shortcuts (J/K, S, `/`), which stand aside for text fields, would take the letters. They stop here,
  // after the editor has handled them; Esc, which leaves any text field in the app, is the editor's own.
  root.addEventListener('keydown', (event) => event.stopPropagation());
  return root;
}

/**
 * Labels and describes the editable area by the page's visible label and hint. An `aria-labelledby` id
 * inside a shadow root cannot name an element outside it; element references can (ARIA reflection refers
 * to elements of the shadow-including ancestor trees).
 */
export function labelFrom(content: HTMLElement, doc: Document, labelId: string, hintId: string): void {
  const label = doc.getElementById(labelId);
  const hint = doc.getElementById(hintId);
  content.ariaLabelledByElements = label ? [label] : null;
  content.ariaDescribedByElements = hint ? [hint] : null;
}
