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
