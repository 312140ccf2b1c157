/**
 * How much of a note, comment or abstract is rendered. arXiv abstracts stop at 1,920 characters and real
 * notes are far shorter than the limit; beyond it a member's (or a feed's) text is shown up to the limit,
 * with a line saying how much was left out, so one huge text cannot make every member's page slow.
 */
export const RENDER_LIMIT = 20_000;

export interface CappedSource {
  /** The part to render. */
  text: string;
  /** What to show after it, or null when nothing was left out. */
  omitted: string | null;
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

export function capSource(source: string, limit: number = RENDER_LIMIT): CappedSource {
  if (source.length <= limit) return { text: source, omitted: null };
  // Never split a character written as two UTF-16 units (an emoji, a maths letter).
  const cut = isHighSurrogate(source.charCodeAt(limit - 1)) ? limit - 1 : limit;
  let more = 0;
  for (let i = cut; i < source.length; i += 1) if (!isLowSurrogate(source.charCodeAt(i))) more += 1;
  const count = more.toLocaleString('en');
  return {
    text: source.slice(0, cut),
    omitted: `(… ${count} more ${more === 1 ? 'character' : 'characters'} not shown)`,
  };
}
