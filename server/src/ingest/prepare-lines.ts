import { normalisePaper, type PaperEntity } from '@quire/core';
import { errorMessage } from '../errors.ts';
import { parseDumpLine } from '../sources/dump-lines.ts';
import { paperTerms, type PaperTerms } from '../store/search-index-schema.ts';

/**
 * A dump line made ready to store: its normalised paper (and, when asked, the paper's search terms), or
 * the sentence that says why the line cannot be imported.
 */
export type PreparedLine = { paper: PaperEntity; terms?: PaperTerms } | { error: string };

/**
 * Parses and normalises dump lines, each on its own: a malformed line gives its error and the rest go on.
 * `withTerms` also computes each paper's search terms, which is worth it only off the writing thread (in
 * the prepare thread); without them the store computes them as it writes.
 */
export function prepareLines(lines: readonly string[], withTerms: boolean): PreparedLine[] {
  return lines.map((line) => {
    let paper: PaperEntity;
    try {
      paper = normalisePaper(parseDumpLine(line));
    } catch (err) {
      return { error: errorMessage(err) };
    }
    if (!withTerms) return { paper };
    return { paper, terms: paperTerms(paper) };
  });
}
