import type { ResolvedPathname } from '$app/types';
import { resolve } from '$app/paths';
import { formatQuery, parseQuery, type ParsedQuery, type SearchSort } from '@quire/core';

/** The box's text read as a query, or null while it does not read (a bad date): the server then says why. */
export function readQuery(text: string): ParsedQuery | null {
  try {
    return parseQuery(text);
  } catch {
    return null;
  }
}

/** The box's text with one filter changed by a control; the text as is when it does not read. */
export function editQuery(text: string, change: (query: ParsedQuery) => Partial<ParsedQuery>): string {
  const query = readQuery(text);
  if (!query) return text;
  return formatQuery({ ...query, ...change(query) });
}

/** The search page's query string for `text` ("?q=…"; "" for an empty box), `&sort=newest` when asked. */
export function searchQuery(text: string, sort: SearchSort = 'relevance'): string {
  const q = text.trim();
  if (!q) return '';
  const params = new URLSearchParams({ q });
  if (sort !== 'relevance') params.set('sort', sort);
  return `?${params.toString()}`;
}

/** The order an address asks for (`?sort=`): relevance unless it says newest. */
export function sortOf(params: URLSearchParams): SearchSort {
  return params.get('sort') === 'newest' ? 'newest' : 'relevance';
}

/** The search page's address for `text`: the resolved path with the query string after it. */
export function searchUrl(text: string, sort: SearchSort = 'relevance'): ResolvedPathname {
  return `${resolve('/search')}${searchQuery(text, sort)}` as ResolvedPathname;
}
