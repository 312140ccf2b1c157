/**
 * Where a week's vote stands, as members should read it: open, ended (the deadline passed and nobody's app
 * has recorded the pick yet) or closed; who leads, or who is tied and which tie-break will decide.
 */
import { compareInstants, byCodeUnits, instantMs } from './peer-values.ts';
import { checkNow } from './input-checks.ts';
import type { Candidate, WeekTally } from './weekly-pick.ts';

/** 'ended': voting is over by the clock; the first member's app to see it records the pick ('closed'). */
export type WeekPhase = 'open' | 'ended' | 'closed';

export function weekPhase(tally: WeekTally, now: Date): WeekPhase {
  if (tally.closed) return 'closed';
  const at = checkNow(now);
  return tally.deadline !== null && compareInstants(at, tally.deadline) > 0 ? 'ended' : 'open';
}

/** How a tie on approvals is decided (see `compareCandidates`). */
export type TieBreak = 'nominated-first' | 'smaller-id';

export interface Standing {
  /** 'no-votes': candidates, none approved yet; 'tie': two or more share the most approvals. */
  kind: 'no-candidates' | 'no-votes' | 'leader' | 'tie';
  /** The paper that would be picked if voting closed now; null without candidates. */
  winner: string | null;
  approvals: number;
  /** The candidates sharing the most approvals, the tie-break's winner first. */
  tied: Candidate[];
  /** How the tie goes to `winner`; null when one candidate leads alone. */
  tieBreak: TieBreak | null;
}

export function pickStanding(tally: WeekTally): Standing {
  const [first, second] = tally.candidates;
  if (!first) return { kind: 'no-candidates', winner: null, approvals: 0, tied: [], tieBreak: null };
  const tied = tally.candidates.filter((c) => c.approvals === first.approvals);
  const tieBreak: TieBreak | null =
    second && second.approvals === first.approvals
      ? instantMs(first.nominatedAt) === instantMs(second.nominatedAt)
        ? 'smaller-id'
        : 'nominated-first'
      : null;
  const kind = first.approvals === 0 ? 'no-votes' : tieBreak ? 'tie' : 'leader';
  return { kind, winner: first.paperId, approvals: first.approvals, tied, tieBreak };
}

/**
 * The candidates in the order they were nominated: the list a member votes on keeps this order while the
 * week is open, so a row never moves under a click; ranking is for the results.
 */
export function inNominationOrder(candidates: readonly Candidate[]): Candidate[] {
  return [...candidates].sort(
    (a, b) => compareInstants(a.nominatedAt, b.nominatedAt) || byCodeUnits(a.paperId, b.paperId),
  );
}
