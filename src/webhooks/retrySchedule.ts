/**
 * Delays before retries 1–5 (exponential, ×5 from one minute): 1 min, 5 min, 25 min,
 * 2 h 5 min, 10 h 25 min. The last retry comes about 13 h after the first attempt, inside
 * the 24 hours of spec/decisions.md; then the delivery is kept as failed.
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  60_000, 300_000, 1_500_000, 7_500_000, 37_500_000,
]

const WINDOW_MS = 24 * 60 * 60 * 1000

/**
 * When to try again after `attempts` attempts (the first at `firstAttemptAt`), or
 * `undefined` when the schedule is spent.
 */
export function nextAttemptAt({
  attempts,
  firstAttemptAt,
  now,
}: {
  attempts: number
  firstAttemptAt: number
  now: number
}): number | undefined {
  const delay = RETRY_DELAYS_MS[attempts - 1]
  if (delay === undefined) return undefined
  const at = now + delay
  return at - firstAttemptAt <= WINDOW_MS ? at : undefined
}
