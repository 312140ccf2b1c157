/**
 * localStorage that never throws: storage can be missing (the build analyses modules in Node), full, or
 * refused (private windows), and none of that should break a page; the value just is not kept.
 */
export function readStored(key: string): string | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStored(key: string, value: string | null): void {
  try {
    if (typeof localStorage === 'undefined') return;
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Not kept; the page goes on with the value in memory.
  }
}

/**
 * A stored JSON list of records with ids, once per id, in stored order. Anything malformed (not JSON, not a
 * list, an entry the guard refuses) is dropped rather than failing the page: storage outlives app versions.
 */
export function parseStoredList<T extends { id: string }>(
  raw: string | null,
  isEntry: (value: unknown) => value is T,
): T[] {
  if (!raw) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  return value.filter((entry): entry is T => {
    if (!isEntry(entry) || seen.has(entry.id)) return false;
    seen.add(entry.id);
    return true;
  });
}
