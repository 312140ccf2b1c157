import { describe, expect, it } from 'vitest';
import { planCountCap } from './search-plan-count.ts';

const UP_TO = 200_000;

/** The topic plan's costs (search-index.ts): a set read once and looked up, against a probe per match read. */
function costs(gather: number, reach: number) {
  const setWins = (m: number) => gather + 0.08 * m < 2 * 1.5 * Math.min(m, reach);
  return { setWins, breakEven: gather / (2 * 1.5 - 0.08) };
}

describe('how far a plan counts the text matches', () => {
  it('decides every count as a count up to the whole cap would', () => {
    for (const gather of [0, 0.5, 17, 1_700, 16_800, 400_000]) {
      for (const reach of [1, 60, 5_000, 120_000, 5_000_000, Infinity]) {
        const { setWins, breakEven } = costs(gather, reach);
        const cap = planCountCap(setWins, breakEven, UP_TO);
        for (const m of [0, 1, 2, 59, 580, 581, 5_750, 5_751, 20_001, 199_999, 200_000, 230_000, 9_000_000]) {
          expect(setWins(Math.min(m, cap)), `gather ${gather} reach ${reach} matches ${m}`).toBe(
            setWins(Math.min(m, UP_TO)),
          );
        }
      }
    }
  });

  it('stops just past the break-even count when the set wins from there to the cap', () => {
    const { setWins, breakEven } = costs(16_800, 120_000);
    expect(planCountCap(setWins, breakEven, UP_TO)).toBe(5_755);
  });

  it('counts to the cap when a large count could still make probing cheaper', () => {
    const { setWins, breakEven } = costs(16_800, 6_000);
    expect(planCountCap(setWins, breakEven, UP_TO)).toBe(UP_TO);
  });
});
