import { describe, expect, it } from 'vitest';
import { momentumSentence } from './momentum-sentence.ts';
import type { ChangeWithheld } from './momentum-types.ts';

const say = (
  last28: number,
  prev28: number,
  allNewLast28: number,
  changeWithheld: ChangeWithheld | null = null,
): string => momentumSentence({ last28, prev28, allNewLast28, changeWithheld });

describe('momentumSentence', () => {
  it('writes the reference example exactly', () => {
    expect(say(134, 56, 16_750)).toBe(
      '134 papers in the last four weeks, up 139% on the four weeks before. 0.8% of all new papers.',
    );
  });

  it('says down, and rounds halves away from zero both ways', () => {
    expect(say(44, 50, 1000)).toBe(
      '44 papers in the last four weeks, down 12% on the four weeks before. 4.4% of all new papers.',
    );
    expect(say(9, 8, 1000)).toContain('up 13% on'); // +12.5%
    expect(say(7, 8, 1000)).toContain('down 13% on'); // −12.5%
  });

  it('says the same for equal counts, and "less than 1%" for a change that rounds to 0%', () => {
    expect(say(20, 20, 400)).toBe(
      '20 papers in the last four weeks, the same as the four weeks before. 5.0% of all new papers.',
    );
    expect(say(1001, 1000, 100_000)).toBe(
      '1,001 papers in the last four weeks, up less than 1% on the four weeks before. 1.0% of all new papers.',
    );
    expect(say(999, 1000, 100_000)).toContain('down less than 1% on');
  });

  it('calls a topic with nothing before new, never up Infinity%', () => {
    expect(say(3, 0, 3000)).toBe(
      '3 papers in the last four weeks, new this month (none in the four weeks before). 0.1% of all new papers.',
    );
  });

  it('says what came before when there are no papers now, without a share', () => {
    expect(say(0, 5, 1000)).toBe('No papers in the last four weeks, down from 5 in the four weeks before.');
    expect(say(0, 1, 1000)).toBe('No papers in the last four weeks, down from 1 in the four weeks before.');
    expect(say(0, 1234, 1000)).toBe(
      'No papers in the last four weeks, down from 1,234 in the four weeks before.',
    );
    expect(say(0, 0, 1000)).toBe('No papers in the last four weeks, none in the four weeks before either.');
  });

  it('uses the singular for one paper', () => {
    expect(say(1, 1, 50)).toBe(
      '1 paper in the last four weeks, the same as the four weeks before. 2.0% of all new papers.',
    );
    expect(say(1, 0, 50)).toBe(
      '1 paper in the last four weeks, new this month (none in the four weeks before). 2.0% of all new papers.',
    );
    expect(say(1, 2, 50)).toMatch(/^1 paper in the last four weeks, down 50% on/);
  });

  it('says "under 0.1%" for a share above 0 that would round to 0.0%', () => {
    expect(say(1, 1, 2001)).toMatch(/ Under 0\.1% of all new papers\.$/); // 0.04998%
    expect(say(1, 1, 2000)).toMatch(/ 0\.1% of all new papers\.$/); // exactly 0.05%
  });

  it('bounds a share that would round to 100.0% without being all', () => {
    expect(say(5, 5, 5)).toMatch(/ 100% of all new papers\.$/);
    expect(say(19_999, 19_999, 20_000)).toMatch(/ Over 99\.9% of all new papers\.$/);
  });

  it('groups thousands in counts and percentages', () => {
    expect(say(1234, 1000, 200_000)).toBe(
      '1,234 papers in the last four weeks, up 23% on the four weeks before. 0.6% of all new papers.',
    );
    expect(say(12_345, 1000, 1_000_000)).toBe(
      '12,345 papers in the last four weeks, up 1,135% on the four weeks before. 1.2% of all new papers.',
    );
  });

  it('leaves the share out when nothing new was stored', () => {
    expect(say(2, 1, 0)).toBe('2 papers in the last four weeks, up 100% on the four weeks before.');
  });

  it('says a withheld change last, after the numbers that stand, and compares nothing', () => {
    expect(say(45, 20, 5000, 'before-first-listing')).toBe(
      '45 papers in the last four weeks. 0.9% of all new papers. Not enough history yet for a change.',
    );
    expect(say(60, 30, 3000, 'fewer-listing-days')).toBe(
      '60 papers in the last four weeks. 2.0% of all new papers. ' +
        'Not enough listing days in the four weeks before for a change.',
    );
    expect(say(1, 0, 50, 'before-first-listing')).toBe(
      '1 paper in the last four weeks. 2.0% of all new papers. Not enough history yet for a change.',
    );
    expect(say(0, 5, 1000, 'before-first-listing')).toBe(
      'No papers in the last four weeks. Not enough history yet for a change.',
    );
    expect(say(2, 1, 0, 'fewer-listing-days')).toBe(
      '2 papers in the last four weeks. Not enough listing days in the four weeks before for a change.',
    );
  });
});
