// How long a password sign-in must wait after failed ones: a delay that grows with each failure,
// never a wall. Two counts are kept: one per account and client address (a guesser at one
// address slows down quickly, up to a quarter of an hour), and one per account from anywhere
// (a guesser spread over many addresses still slows down, but the delay stays short, so that a
// stranger who keeps failing at someone's account makes its owner wait seconds, not lock them
// out). Failures older than an hour are forgotten; a successful sign-in forgets them at once.
import { MINUTE_MS, SECOND_MS } from "./time-units.ts";

export interface FailureCount {
  readonly failures: number;
  /** Epoch ms of the latest failure. */
  readonly lastFailureAt: number;
}

export interface DelayRule {
  /** Failures allowed before any delay. */
  readonly free: number;
  /** The delay after the first failure past `free`; it doubles with each further one. */
  readonly firstMs: number;
  readonly maxMs: number;
}

/** Per account and client address. */
export const PER_ADDRESS: DelayRule = { free: 3, firstMs: SECOND_MS, maxMs: 15 * MINUTE_MS };
/** Per account from every address: short, so it never becomes a lock-out. */
export const PER_ACCOUNT: DelayRule = { free: 20, firstMs: SECOND_MS, maxMs: 30 * SECOND_MS };
/** How long a failure is remembered. */
export const FORGET_AFTER_MS = 60 * MINUTE_MS;

/** The delay that `count` failures impose after the latest one (0 while within `free`). */
export function delayAfter(count: number, rule: DelayRule): number {
  if (count <= rule.free) return 0;
  const doublings = Math.min(count - rule.free - 1, 30);
  return Math.min(rule.firstMs * 2 ** doublings, rule.maxMs);
}

/** How many ms from `now` the next try must wait; 0 when it may go ahead. */
export function waitBeforeTry(count: FailureCount | undefined, rule: DelayRule, now: number): number {
  if (!count || now - count.lastFailureAt >= FORGET_AFTER_MS) return 0;
  return Math.max(0, count.lastFailureAt + delayAfter(count.failures, rule) - now);
}
