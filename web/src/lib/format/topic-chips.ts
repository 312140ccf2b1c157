import type { TopicTag } from '@quire/core';

/** Chips in a paper's topic row: past six, a row stops telling papers apart and wraps onto several lines. */
export const CHIP_LIMIT = 6;

type ChipTag = Pick<TopicTag, 'slug' | 'name' | 'direct' | 'depth' | 'score'>;

/**
 * Most specific first: what the tagger found (direct) before the broader topics it implies, deeper topics
 * before shallower, then the better supported, then by name (and slug, so equal names cannot swap places).
 */
export function compareChips(a: ChipTag, b: ChipTag): number {
  return (
    Number(b.direct) - Number(a.direct) ||
    b.depth - a.depth ||
    b.score - a.score ||
    a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) ||
    (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0)
  );
}

/**
 * The chips a paper's topic row shows, most specific first, at most `max`. The API lists tags broad to
 * narrow, so a plain cut would keep the broad ones nobody needs. `current` (the topic whose page the row is
 * on) keeps its chip even when it ranks past the cut, taking the last place, so the page's own topic is
 * never missing from its cards.
 */
export function chipsFor<T extends ChipTag>(tags: readonly T[], max = CHIP_LIMIT, current?: string): T[] {
  const ranked = [...tags].sort(compareChips);
  const shown = ranked.slice(0, Math.max(0, max));
  const here = ranked.find((t) => t.slug === current);
  if (here && shown.length > 0 && !shown.includes(here)) shown[shown.length - 1] = here;
  return shown;
}
