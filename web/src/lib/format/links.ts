/** Only web links become hrefs: a URL read from a paper's abstract could otherwise be `javascript:`. */
export function safeHref(url: string): string | null {
  return /^https?:\/\/[^\s]+$/i.test(url) ? url : null;
}

/** "https://github.com/owner/repo/" → "github.com/owner/repo". */
export function shortUrl(url: string): string {
  return url.replace(/^https?:\/\/(www\.)?/i, '').replace(/\/+$/, '');
}

/** An id that is safe inside an HTML id attribute and a CSS selector. */
export function domId(prefix: string, id: string): string {
  return `${prefix}-${id.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}
