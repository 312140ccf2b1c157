/** Counts of papers per listing day ("YYYY-MM-DD"); a missing day counts 0. A `Map` fits. */
export interface DailyCounts {
  get(day: string): number | undefined;
}

/**
 * Precomputed daily counts, so that the server can feed momentum from SQL and the browser from its cache, and
 * both get the same numbers and the same sentence.
 */
export interface MomentumInput {
  /** Inclusive end of the window. Not "today": the server passes the latest listing day in the store. */
  asOf: string;
  /** New papers of the topic per listing day: each paper once, however many categories list it; no replacements. */
  topicDaily: DailyCounts;
  /** All new papers stored per listing day, counted the same way. */
  allDaily: DailyCounts;
  /** The topic's all-time total. */
  total: number;
  /** Length of the weekly series; 12 when left out. */
  weeks?: number;
  /**
   * The store's earliest listing day, null when it has none. Needed because a day before it reads 0 in the
   * daily counts like a quiet day would, yet means "not stored", and allDaily may hold only the days read.
   */
  firstListingDay: string | null;
}

/**
 * Why changePct is null although the four weeks before had papers: comparing would overclaim.
 * - 'before-first-listing': the four weeks before start before the store's first listing day (or the store
 *   has none), so part of them was never stored and would count as a fall to nothing.
 * - 'fewer-listing-days': the four weeks before hold fewer listing days (days with a new paper in allDaily)
 *   than the last four weeks, e.g. a gap in harvesting, so a rise could be just the extra days.
 */
export type ChangeWithheld = 'before-first-listing' | 'fewer-listing-days';

export interface WeekCount {
  /** The Monday starting the week. */
  weekStart: string;
  /**
   * Topic papers listed that week; null ("no data", not 0) when the whole week is before the store's first
   * listing day. The week holding the first listing day counts from that day.
   */
  count: number | null;
}

export interface Momentum {
  /** Topic papers listed in [asOf − 27, asOf]. */
  last28: number;
  /** Topic papers listed in [asOf − 55, asOf − 28]. */
  prev28: number;
  /** Change from prev28 to last28 in percent, rounded to an integer; null when prev28 is 0 or when withheld. */
  changePct: number | null;
  /** Set when the change is not given because the two windows cannot be compared; null otherwise. */
  changeWithheld: ChangeWithheld | null;
  /** 100 · last28 / allNewLast28, rounded to 2 decimals; 0 when nothing new was stored. */
  sharePct: number;
  /** All new papers listed in [asOf − 27, asOf]. */
  allNewLast28: number;
  /**
   * All new papers listed in [asOf − 55, asOf − 28]. Not in the reference page; kept so that a list of
   * momenta can go straight into rankRising, which needs the overall change between the two windows.
   */
  allNewPrev28: number;
  total: number;
  /** Oldest first; the last week holds asOf and counts only days up to it. */
  weekly: WeekCount[];
  /**
   * "134 papers in the last four weeks, up 139% on the four weeks before. 0.8% of all new papers." When the
   * change is withheld: "45 papers in the last four weeks. 0.9% of all new papers. Not enough history yet for
   * a change."
   */
  sentence: string;
}
