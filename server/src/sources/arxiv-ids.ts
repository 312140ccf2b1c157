/**
 * Pulling an arXiv id and version out of the many forms the wire uses: OAI identifiers
 * (oai:arXiv.org:hep-th/9504118), abs URLs (http://arxiv.org/abs/1111.2011v2), RSS guids. The result
 * is only a split, not a validation: `normalisePaper` in core decides what is acceptable.
 */

// New-style ids (0704.0001, 2604.12345) or old-style archive ids (hep-th/9901001, math.GT/0309136),
// at the end of the string, with an optional version.
const ID_AT_END = /([a-z-]+(?:\.[a-z]{2})?\/\d{7}|\d{4}\.\d{4,5})(?:v(\d+))?\/?$/i;

export interface ArxivRef {
  id: string;
  /** Version number when the text named one. */
  version: number | null;
}

export function parseArxivRef(value: string): ArxivRef {
  const trimmed = value.trim();
  const match = ID_AT_END.exec(trimmed);
  if (!match?.[1]) return { id: trimmed, version: null };
  return { id: match[1], version: match[2] === undefined ? null : Number(match[2]) };
}

const OAI_PREFIX = /^oai:arxiv\.org:/i;

/** "oai:arXiv.org:0704.0001" → "0704.0001"; other identifiers are returned unchanged. */
export function stripOaiPrefix(identifier: string): string {
  return identifier.replace(OAI_PREFIX, '');
}
