/**
 * How far a topic filter's plan counts the text's matches. The set is the cheaper plan when
 * `gather + lookup × m < probe × min(m, reach)` for m matches: the left side grows in a line and the right
 * one bends down once, so the counts for which the set wins form one interval. When the set wins at the
 * count just past `breakEven` (the least count a set can win from) and at the cap as well, it wins at every
 * count between, and counting further than that first count decides nothing more. The plan of
 * "topic:reinforcement-learning transformers" counted "transformer" up to 200,000 (at 10x its 20,730
 * matches, 7.4 ms of CPU on a cold connection, 1.8 warm; at 100x about ten times that) to learn what 580
 * (5,800 at 100x) already told, and the window's exact count, just read, holds that many.
 */
export function planCountCap(setWins: (matches: number) => boolean, breakEven: number, upTo: number): number {
  const first = Math.max(1, Math.ceil(breakEven) + 1);
  return first < upTo && setWins(first) && setWins(upTo) ? first : upTo;
}
