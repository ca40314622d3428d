/** RFC 3339 with a UTC offset, e.g. 2025-02-20T13:52:29+00:00. */
export function formatTime(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00')
}
