import { sql } from 'kysely'
import type { Store } from '../../src/store/createStore.ts'

/**
 * Bytes on disk per table, its indexes included: SQLite from `dbstat` (pages of every b-tree,
 * WAL content included), PostgreSQL from `pg_total_relation_size` (heap, indexes, TOAST).
 */
export async function measureDisk(store: Store): Promise<Map<string, number>> {
  if (store.dialect === 'sqlite') {
    const { rows } = await sql<{ table: string; bytes: number }>`
      select m.tbl_name as "table", sum(d.pgsize) as bytes
      from dbstat d join sqlite_master m on m.name = d.name
      group by m.tbl_name`.execute(store.db)
    return new Map(rows.map((r) => [r.table, Number(r.bytes)]))
  }
  const { rows } = await sql<{ table: string; bytes: string }>`
    select relname as "table", pg_total_relation_size(relid)::text as bytes
    from pg_stat_user_tables`.execute(store.db)
  return new Map(rows.map((r) => [r.table, Number(r.bytes)]))
}

/**
 * The bytes of each PostgreSQL table after `VACUUM FULL`, which rewrites every table and index
 * without dead row versions and with full pages: the size of the same rows freshly packed.
 */
export async function packPostgresTables(store: Store): Promise<Map<string, number>> {
  await sql`vacuum full`.execute(store.db)
  return measureDisk(store)
}

/** A server setting as PostgreSQL shows it (`show`). */
export async function readPostgresSetting(store: Store, name: string): Promise<string> {
  const { rows } = await sql<{ setting: string }>`
    select setting from pg_settings where name = ${name}`.execute(store.db)
  return rows[0]?.setting ?? 'unknown'
}

/** The per-table table of bytes per transaction, largest first, tables under 1 B/tx folded. */
export function formatDisk({
  disk,
  transactions,
}: {
  disk: ReadonlyMap<string, ReadonlyMap<string, number>>
  transactions: number
}): string[] {
  const stores = [...disk.keys()]
  const tables = new Set<string>()
  for (const sizes of disk.values()) for (const t of sizes.keys()) tables.add(t)
  const perTx = (store: string, table: string) =>
    (disk.get(store)?.get(table) ?? 0) / Math.max(1, transactions)
  const order = [...tables].sort((a, b) => perTx(stores[0]!, b) - perTx(stores[0]!, a))
  const width = Math.max(5, ...order.map((t) => t.length))
  const lines = [['table'.padEnd(width), ...stores.map((s) => `${s} B/tx`.padStart(14))].join(' ')]
  let small = stores.map(() => 0)
  for (const table of order) {
    const cells = stores.map((s) => perTx(s, table))
    if (cells.every((c) => c < 1)) {
      small = small.map((v, i) => v + cells[i]!)
      continue
    }
    lines.push([table.padEnd(width), ...cells.map((c) => c.toFixed(0).padStart(14))].join(' '))
  }
  lines.push(['(others)'.padEnd(width), ...small.map((c) => c.toFixed(0).padStart(14))].join(' '))
  const totals = stores.map((s) => [...tables].reduce((sum, t) => sum + perTx(s, t), 0))
  lines.push(['total'.padEnd(width), ...totals.map((c) => c.toFixed(0).padStart(14))].join(' '))
  return lines
}

/**
 * PostgreSQL's tables split: heap and index bytes, rows and dead row versions (not yet
 * vacuumed), per transaction, and heap bytes per row; tables under 10 B/tx left out. Rows
 * are counted; dead versions are the statistics' estimate.
 */
export async function describePostgresTables({
  store,
  transactions,
}: {
  store: Store
  transactions: number
}): Promise<string[]> {
  const { rows } = await sql<{
    table: string
    heap: string
    indexes: string
    dead: string
  }>`
    select relname as "table", pg_table_size(relid)::text as heap,
      pg_indexes_size(relid)::text as indexes, n_dead_tup::text as dead
    from pg_stat_user_tables`.execute(store.db)
  const perTx = (n: number) => n / Math.max(1, transactions)
  const lines = [
    `${'table'.padEnd(22)} ${'heap B/tx'.padStart(10)} ${'index B/tx'.padStart(10)} ${'rows/tx'.padStart(8)} ${'dead/tx'.padStart(8)} ${'heap B/row'.padStart(10)}`,
  ]
  const sorted = rows
    .map((r) => ({ ...r, heap: Number(r.heap), indexes: Number(r.indexes), dead: Number(r.dead) }))
    .filter((r) => perTx(r.heap + r.indexes) >= 10)
    .sort((a, b) => b.heap + b.indexes - (a.heap + a.indexes))
  for (const r of sorted) {
    const { count } = await sql<{ count: string }>`
      select count(*)::text as count from ${sql.table(r.table)}`
      .execute(store.db)
      .then((q) => q.rows[0]!)
    const live = Number(count)
    lines.push(
      `${r.table.padEnd(22)} ${perTx(r.heap).toFixed(0).padStart(10)} ${perTx(r.indexes).toFixed(0).padStart(10)} ${perTx(live).toFixed(2).padStart(8)} ${perTx(r.dead).toFixed(2).padStart(8)} ${(live > 0 ? r.heap / (live + r.dead) : 0).toFixed(0).padStart(10)}`,
    )
  }
  return lines
}
