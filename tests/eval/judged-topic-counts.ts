import type { Taxonomy } from '@quire/core';
import { formatInterval, wilson } from './interval.ts';
import { consensus, type LockedJudgment } from './locked-eval.ts';
import { seededRandom } from './recall-pools.ts';

/**
 * How many direct topics the judges themselves give a paper: the topics judged in, less those that are an
 * ancestor of another topic judged in (as the engine's direct tags leave implied parents out). It is the
 * reference for the tags-per-paper goal: an engine that agreed with every judgment would show this
 * distribution, so a median above the judges' can only be reached with tags a judge rejects.
 */
export interface JudgedCounts {
  papers: number;
  median: number;
  medianLow: number;
  medianHigh: number;
  mean: number;
  none: number;
  threeOrMore: number;
  histogram: number[];
}

/** The topics judged in for each judged paper (majority of judges; a tie is out: locked-eval's consensus). */
function inTopicsByPaper(judgments: readonly LockedJudgment[]): Map<string, Set<string>> {
  const papers = new Map(judgments.map((j) => [j.paper, new Set<string>()]));
  for (const [key, label] of consensus(judgments)) {
    const [paper = '', topic = ''] = key.split(' ');
    if (label) papers.get(paper)?.add(topic);
  }
  return papers;
}

const medianOf = (sorted: readonly number[]): number => sorted[Math.floor(sorted.length / 2)] ?? 0;

export function judgedTopicCounts(judgments: readonly LockedJudgment[], taxonomy: Taxonomy): JudgedCounts {
  const counts: number[] = [];
  for (const topics of inTopicsByPaper(judgments).values()) {
    const implied = new Set([...topics].flatMap((t) => taxonomy.ancestors.get(t) ?? []));
    counts.push([...topics].filter((t) => !implied.has(t)).length);
  }
  counts.sort((a, b) => a - b);
  // A percentile bootstrap of the median (seeded, 2,000 resamples): the median of small counts moves in
  // whole steps, so its interval says whether "2" could as well be "3".
  const random = seededRandom(11);
  const medians: number[] = [];
  for (let r = 0; r < 2000 && counts.length > 0; r++) {
    const resample = Array.from(
      { length: counts.length },
      () => counts[Math.floor(random() * counts.length)] ?? 0,
    );
    medians.push(medianOf(resample.sort((a, b) => a - b)));
  }
  medians.sort((a, b) => a - b);
  const histogram: number[] = [];
  for (const n of counts) histogram[Math.min(n, 8)] = (histogram[Math.min(n, 8)] ?? 0) + 1;
  return {
    papers: counts.length,
    median: medianOf(counts),
    medianLow: medians[Math.floor(0.025 * medians.length)] ?? 0,
    medianHigh: medians[Math.floor(0.975 * medians.length)] ?? 0,
    mean: counts.reduce((s, n) => s + n, 0) / Math.max(1, counts.length),
    none: counts.filter((n) => n === 0).length,
    threeOrMore: counts.filter((n) => n >= 3).length,
    histogram: Array.from({ length: 9 }, (_, i) => histogram[i] ?? 0),
  };
}

/** Prints the judges' own direct topics per paper for one set and returns its figures for the JSON. */
export function printJudgedTopicCounts(
  name: string,
  judgments: readonly LockedJudgment[],
  taxonomy: Taxonomy,
): Record<string, unknown> {
  const c = judgedTopicCounts(judgments, taxonomy);
  const none = wilson(c.none, c.papers);
  const three = wilson(c.threeOrMore, c.papers);
  console.log(
    `judges' own direct topics per paper, ${name}: ${c.papers} papers, median ${c.median} ` +
      `[${c.medianLow}–${c.medianHigh}], mean ${c.mean.toFixed(2)}; none ${formatInterval(none)}; ` +
      `3 or more ${formatInterval(three)}; histogram (0..8+) ${c.histogram.join(' ')}`,
  );
  return {
    papers: c.papers,
    median: c.median,
    medianInterval: [c.medianLow, c.medianHigh],
    mean: Number(c.mean.toFixed(3)),
    noneShare: Number(none.p.toFixed(3)),
    threeOrMoreShare: Number(three.p.toFixed(3)),
  };
}
