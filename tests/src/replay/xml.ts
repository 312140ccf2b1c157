/** Character data for Atom and RSS, which arXiv writes with only the three mandatory escapes. */
export function escapeText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Attribute values, and OAI character data, where arXiv also writes `"` as `&quot;`. */
export function escapeAttr(value: string): string {
  return escapeText(value).replace(/"/g, '&quot;');
}

export function element(name: string, text: string): string {
  return `<${name}>${escapeText(text)}</${name}>`;
}

/**
 * Damages a well-formed document so any XML parser rejects it: the tail is cut off inside the content,
 * then an unterminated attribute, a bare ampersand and a stray closing tag follow.
 */
export function breakMarkup(body: string): string {
  const cut = body.lastIndexOf('<', Math.floor(body.length / 2));
  const head = cut > 0 ? body.slice(0, cut) : '';
  return `${head}<record broken="unterminated>R&D</not-opened>\n</OAI-PMH\n`;
}
