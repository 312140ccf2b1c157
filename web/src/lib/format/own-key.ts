/**
 * A table entry for a key read from input (a LaTeX command, a word), or undefined. Never `key in table` or
 * `table[key]` alone: "constructor", "toString" and the like are inherited by every object literal.
 */
export function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
