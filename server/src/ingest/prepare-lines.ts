import { normalisePaper, type CompiledTaxonomy, type PaperEntity } from '@quire/core';
import { errorMessage } from '../errors.ts';
import { parseDumpLine } from '../sources/dump-lines.ts';
import { paperTerms, type PaperTerms } from '../store/search-index-schema.ts';
import { encodeTag, type EncodedTag } from '../store/tag-store.ts';

/**
 * A dump line made ready to store: its normalised paper (and, when asked, the paper's search terms and its
 * tags), or the sentence that says why the line cannot be imported.
 */
export type PreparedLine =
  { paper: PaperEntity; terms?: PaperTerms; tags?: EncodedTag[] } | { error: string };

/**
 * Parses and normalises dump lines, each on its own: a malformed line gives its error and the rest go on.
 * `withTerms` also computes each paper's search terms, which is worth it only off the writing thread (in
 * the prepare thread); without them the store computes them as it writes. With an `engine`, each paper is
 * tagged too, so the import stores its tags in the paper's own batch and no re-tag pass reads it again.
 */
export function prepareLines(
  lines: readonly string[],
  withTerms: boolean,
  engine?: CompiledTaxonomy,
): PreparedLine[] {
  return lines.map((line) => {
    let paper: PaperEntity;
    try {
      paper = normalisePaper(parseDumpLine(line));
    } catch (err) {
      return { error: errorMessage(err) };
    }
    const tags = engine ? tagsOf(engine, paper) : undefined;
    return { paper, ...(withTerms ? { terms: paperTerms(paper) } : {}), ...(tags ? { tags } : {}) };
  });
}

/** Undefined when the engine fails on the paper: it is stored untagged, and the re-tag meets it again. */
function tagsOf(engine: CompiledTaxonomy, paper: PaperEntity): EncodedTag[] | undefined {
  try {
    return engine.tag(paper).map(encodeTag);
  } catch {
    return undefined;
  }
}
