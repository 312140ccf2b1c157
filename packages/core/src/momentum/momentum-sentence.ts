/**
 * The momentum sentence in the reference site's shape, which users already know:
 *   "134 papers in the last four weeks, up 139% on the four weeks before. 0.8% of all new papers."
 * It is made from the counts alone (not from the rounded changePct / sharePct), so a client holding only the
 * JSON momentum object words it exactly as the server does, and the share is rounded once, not twice.
 */
import type { ChangeWithheld, Momentum } from './momentum-types.ts';
import { groupThousands, percentChange, sharePercent } from './momentum-numbers.ts';

export type SentenceCounts = Pick<Momentum, 'last28' | 'prev28' | 'allNewLast28' | 'changeWithheld'>;

/** The last sentence when the change is withheld, saying why in the reader's terms. */
const WITHHELD: Record<ChangeWithheld, string> = {
  'before-first-listing': 'Not enough history yet for a change.',
  'fewer-listing-days': 'Not enough listing days in the four weeks before for a change.',
};

function papers(n: number): string {
  return `${groupThousands(n)} ${n === 1 ? 'paper' : 'papers'}`;
}

/** The clause after "… in the last four weeks, " when there were papers in both windows. */
function changeClause(last28: number, prev28: number): string {
  if (last28 === prev28) return 'the same as the four weeks before';
  const direction = last28 > prev28 ? 'up' : 'down';
  const pct = Math.abs(percentChange(last28, prev28) ?? 0);
  // 1,001 after 1,000 rounds to 0%; "up 0%" would read as no change, so say how small the change is.
  const amount = pct === 0 ? 'less than 1%' : `${groupThousands(pct)}%`;
  return `${direction} ${amount} on the four weeks before`;
}

/** The first sentence: how many papers, against the four weeks before unless that comparison is withheld. */
function countSentence({ last28, prev28, changeWithheld }: SentenceCounts): string {
  // Not even "none before" or "new this month": those are comparisons with weeks that were not stored.
  if (changeWithheld !== null)
    return `${last28 === 0 ? 'No papers' : papers(last28)} in the last four weeks.`;
  if (last28 === 0) {
    return prev28 === 0
      ? 'No papers in the last four weeks, none in the four weeks before either.'
      : `No papers in the last four weeks, down from ${groupThousands(prev28)} in the four weeks before.`;
  }
  if (prev28 === 0) {
    // Never "up Infinity%": a topic with nothing before is new, not infinitely faster.
    return `${papers(last28)} in the last four weeks, new this month (none in the four weeks before).`;
  }
  return `${papers(last28)} in the last four weeks, ${changeClause(last28, prev28)}.`;
}

/**
 * The share with one decimal, as the reference writes it ("0.8%"). A share that would round to 0.0% or to
 * 100.0% without being exactly that is bounded instead, so that a topic with papers never reads "0.0%".
 */
function shareSentence({ last28, allNewLast28 }: SentenceCounts): string {
  // More than all would be inconsistent input; it is not worth a thrown error on a topic page.
  if (last28 >= allNewLast28) return '100% of all new papers.';
  const share = sharePercent(last28, allNewLast28);
  if (share < 0.05) return 'Under 0.1% of all new papers.';
  if (share >= 99.95) return 'Over 99.9% of all new papers.';
  return `${(Math.round(share * 10) / 10).toFixed(1)}% of all new papers.`;
}

/**
 * "134 papers in the last four weeks, up 139% on the four weeks before. 0.8% of all new papers." The share
 * sentence is left out when the topic had no papers (0% says nothing the first sentence has not) and when
 * nothing new was stored at all. A withheld change is said last, so the numbers that stand come first.
 */
export function momentumSentence(counts: SentenceCounts): string {
  const parts = [countSentence(counts)];
  if (counts.last28 > 0 && counts.allNewLast28 > 0) parts.push(shareSentence(counts));
  if (counts.changeWithheld !== null) parts.push(WITHHELD[counts.changeWithheld]);
  return parts.join(' ');
}
