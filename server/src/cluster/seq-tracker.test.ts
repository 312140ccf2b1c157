import { describe, expect, it } from 'vitest';
import { SeqTracker } from './seq-tracker.ts';

describe('SeqTracker', () => {
  it('advances through numbers that arrive in order and says when one was seen before', () => {
    const t = new SeqTracker(3);
    expect(t.add(4)).toBe(true);
    expect(t.add(5)).toBe(true);
    expect(t.add(5)).toBe(false);
    expect(t.add(2)).toBe(false);
    expect(t.through).toBe(5);
    expect(t.hasGap).toBe(false);
  });

  it('holds a hole open until the missing number arrives', () => {
    const t = new SeqTracker(0);
    t.add(1);
    t.add(3);
    t.add(4);
    expect(t.through).toBe(1);
    expect(t.hasGap).toBe(true);
    expect(t.has(3)).toBe(true);
    expect(t.has(2)).toBe(false);
    t.add(2);
    expect(t.through).toBe(4);
    expect(t.hasGap).toBe(false);
  });

  it('closes every hole a catch-up covered and keeps counting after it', () => {
    const t = new SeqTracker(0);
    t.add(2);
    t.add(7);
    t.add(9);
    t.coverThrough(7);
    expect(t.through).toBe(7);
    expect(t.hasGap).toBe(true); // 9 is held, 8 is not
    t.add(8);
    expect(t.through).toBe(9);
    t.coverThrough(5); // an older catch-up changes nothing
    expect(t.through).toBe(9);
  });
});
