/** Small formatting shared by the group pages. */

/** "16 Mar 2026, 14:05" in the reader's time zone: when something happened in the group. */
export function when(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}

/** A file name from a group's name: "ML Guild (Tue)" → "ml-guild-tue". */
export function fileSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '-');
  return slug || 'group';
}

/** Offers `text` as a file download, without a server round trip (works offline). */
export function download(fileName: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download by now; the URL is only needed until then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The first three authors, then "+N" for the rest: "A, B, C +4". */
export function authorsLine(names: readonly string[]): string {
  return names.length > 3 ? `${names.slice(0, 3).join(', ')} +${names.length - 3}` : names.join(', ');
}
