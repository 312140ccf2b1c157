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
}

export interface WeekCount {
  /** The Monday starting the week. */
  weekStart: string;
  count: number;
}

export interface Momentum {
  /** Topic papers listed in [asOf − 27, asOf]. */
  last28: number;
  /** Topic papers listed in [asOf − 55, asOf − 28]. */
  prev28: number;
  /** Change from prev28 to last28 in percent, rounded to an integer; null when prev28 is 0. */
  changePct: number | null;
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
  /** "134 papers in the last four weeks, up 139% on the four weeks before. 0.8% of all new papers." */
  sentence: string;
}
