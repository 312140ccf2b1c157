/**
 * Rich text: plain strings and a few known inline tags, what latex-text.ts makes of a title or abstract and
 * RichText.svelte renders element by element. There is no way to spell markup in it.
 */
export type RichTag =
  'sup' | 'sub' | 'b' | 'i' | 'code' | 'u' | 'math' | 'smallcaps' | 'overline' | 'upright';

export interface RichElement {
  tag: RichTag;
  children: RichNode[];
}

export type RichNode = string | RichElement;

export const el = (tag: RichTag, children: RichNode[]): RichElement => ({ tag, children });

export function pushText(out: RichNode[], text: string): void {
  if (!text) return;
  const last = out[out.length - 1];
  if (typeof last === 'string') out[out.length - 1] = last + text;
  else out.push(text);
}

export function pushNode(out: RichNode[], node: RichNode): void {
  if (typeof node === 'string') pushText(out, node);
  else out.push(node);
}

/** The visible text of a tree, for page titles and accessible names. */
export function plainText(nodes: readonly RichNode[]): string {
  return nodes.map((n) => (typeof n === 'string' ? n : plainText(n.children))).join('');
}
