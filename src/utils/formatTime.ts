/** RFC 3339 with a UTC offset, e.g. 2025-02-20T13:52:29+00:00. */
export function formatTime(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00')
}

/** 9999-12-31T23:59:59Z: the last second RFC 3339 writes (its years have four digits). */
const LAST_WRITABLE_SECOND = 253_402_300_799

/**
 * `formatTime` of a time a contract chose rather than a block's (a Permit2 expiration):
 * `null` past the year 9999, which RFC 3339 cannot write and many clients cannot parse.
 * Permit2's largest expiration, 2^48 − 1 seconds, is how wallets say "never".
 */
export function formatTimeOrNull(unixSeconds: number): string | null {
  return unixSeconds > LAST_WRITABLE_SECOND ? null : formatTime(unixSeconds)
}
