import type { Clock } from '../../src/lib/clock.ts';

/** A clock tests move by hand, for claim expiry and ordering. */
export class TestClock implements Clock {
  private t: number;
  constructor(start = Date.now()) {
    this.t = start;
  }
  now(): Date {
    return new Date(this.t);
  }
  advance(ms: number): void {
    this.t += ms;
  }
  /** Moves on one millisecond per call, so consecutive writes get distinct, ordered timestamps. */
  tick(): Date {
    this.t += 1;
    return new Date(this.t);
  }
}
