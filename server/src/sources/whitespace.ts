/** Folds runs of whitespace (line wraps, indentation from pretty-printing) into single spaces. */
export function collapse(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}
