/** What a chunked migration reports (`store.migrate`'s `onProgress`). */
export type MigrationReport = { migration: string; done: number; total: number | undefined }

/**
 * An `onProgress` for `store.migrate` that passes on one report every `everyMs` at most, and
 * the last (all rows done), each with a line for a person:
 * `0023_packed_calldata_and_logs: 250,000 of 1,031,298 rows (24 %)`.
 */
export function reportMigrationProgress(
  report: (line: string, fields: MigrationReport) => void,
  { everyMs = 5000, now = Date.now }: { everyMs?: number; now?: () => number } = {},
): (migration: string, done: number, total: number | undefined) => void {
  let last = now()
  return (migration, done, total) => {
    const at = now()
    if (at - last < everyMs && done !== total) return
    last = at
    const count = done.toLocaleString('en-US')
    const line = total
      ? `${migration}: ${count} of ${total.toLocaleString('en-US')} rows (${Math.floor((done / total) * 100)} %)`
      : `${migration}: ${count} rows`
    report(line, { migration, done, total })
  }
}
