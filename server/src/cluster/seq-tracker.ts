/**
 * Which of a group's update numbers (PostgreSQL's per-group `seq`) one node's document holds: every
 * number up to `through`, and some above it. A node's own appends and other nodes' messages arrive out of
 * number order, so a number above `through` leaves a hole until the missing ones arrive or a catch-up
 * from the log covers them. Pure bookkeeping: the caller decides when a hole has lasted long enough.
 */
export class SeqTracker {
  private last: number;
  private readonly above = new Set<number>();

  constructor(through: number) {
    this.last = through;
  }

  /** Every number up to and including this one is in the document. */
  get through(): number {
    return this.last;
  }

  /** Some number above `through` is held while one below it is not. */
  get hasGap(): boolean {
    return this.above.size > 0;
  }

  has(seq: number): boolean {
    return seq <= this.last || this.above.has(seq);
  }

  /** Records one number as held; returns false when it already was. */
  add(seq: number): boolean {
    if (this.has(seq)) return false;
    this.above.add(seq);
    this.advance();
    return true;
  }

  /** A catch-up read every row after `through` up to `seq`: all of them are held now. */
  coverThrough(seq: number): void {
    if (seq <= this.last) return;
    this.last = seq;
    for (const n of this.above) if (n <= seq) this.above.delete(n);
    this.advance();
  }

  private advance(): void {
    while (this.above.delete(this.last + 1)) this.last++;
  }
}
