import type { Kysely } from 'kysely'

/** Multi-row INSERT in chunks that stay under the engine's bound-parameter limit. */
export async function insertRows({
  db,
  table,
  rows,
  maxParams,
}: {
  // biome-ignore lint/suspicious/noExplicitAny: table names are dynamic here, typed at the callers.
  db: Kysely<any>
  table: string
  rows: readonly Record<string, unknown>[]
  maxParams: number
}): Promise<void> {
  const first = rows[0]
  if (!first) return
  const perRow = Object.keys(first).length
  const chunk = Math.max(1, Math.floor(maxParams / perRow))
  for (let i = 0; i < rows.length; i += chunk) {
    await db
      .insertInto(table)
      .values(rows.slice(i, i + chunk) as Record<string, unknown>[])
      .execute()
  }
}
