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
