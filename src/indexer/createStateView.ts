import type { StateKeyPrefix, StateReader, Store } from '../store/createStore.ts'
import type { Database } from '../store/schema.ts'
import { STATE_KEYS, type StateChange, type StateTable } from '../store/stateTables.ts'

/**
 * The store as it will be once every prepared batch is committed: the pipeline prepares batch
 * N+1 while batch N is still being written, so what N+1 reads (previous balances, known
 * tokens, pools) must already include N's changes. Prepared batches' changes live here, keyed
 * by their sequence number, until the store has committed them.
 */
export type StateView = StateReader & {
  /** The state changes of prepared batch `seq` (sequence numbers rise). */
  push(seq: number, changes: readonly StateChange[]): void
  /** Batches up to `seq` are in the store: their changes leave the overlay. */
  committed(seq: number): void
  /** Forgets every pending change (the pipeline was abandoned). */
  clear(): void
  /** Changed keys still pending (for tests and metrics). */
  pending(): number
}

/** `order`: when the key entered the overlay (a `Map`'s own order, kept for lookups by key). */
type Entry = { seq: number; row: Record<string, unknown> | null; order: number }

const keyOf = (table: StateTable, values: Record<string, unknown>) =>
  (STATE_KEYS[table] as readonly string[]).map((k) => String(values[k])).join('|')

export function createStateView({ store }: { store: Store }): StateView {
  const overlay = new Map<StateTable, Map<string, Entry>>()
  let entered = 0
  const tableOf = (table: StateTable) => {
    let entries = overlay.get(table)
    if (!entries) {
      entries = new Map()
      overlay.set(table, entries)
    }
    return entries
  }

  /** Pending rows (null: deleted) of one chain whose key values pass `keep`, by key. */
  function matching(
    table: StateTable,
    chainId: number,
    keep: (values: Record<string, unknown>) => boolean,
  ): [string, Record<string, unknown> | null][] {
    const out: [string, Record<string, unknown> | null][] = []
    for (const [key, entry] of overlay.get(table) ?? []) {
      const values = entry.row ?? parseKey(table, key)
      if (Number(values.chain_id) === chainId && keep(values)) out.push([key, entry.row])
    }
    return out
  }

  /**
   * `matching` for reads that name whole keys: each key looked up instead of every pending
   * entry of the table tested (a batch's reads against a batch's pending changes, thousands
   * each), in the overlay's order as `matching` gives them.
   */
  function pendingOf(
    table: StateTable,
    chainId: number,
    keys: readonly StateKeyPrefix[],
  ): [string, Record<string, unknown> | null][] {
    const entries = overlay.get(table)
    if (!entries || entries.size === 0) return []
    const columns = STATE_KEYS[table] as readonly string[]
    const chain = String(chainId)
    const found = new Map<string, Entry>()
    for (const key of keys) {
      const id = columns.map((c) => (c === 'chain_id' ? chain : String(key[c]))).join('|')
      const entry = entries.get(id)
      if (entry) found.set(id, entry)
    }
    return [...found]
      .sort((a, b) => a[1].order - b[1].order)
      .map(([id, entry]): [string, Record<string, unknown> | null] => [id, entry.row])
  }

  return {
    async readState<T extends StateTable>({
      table,
      chainId,
      keys,
    }: {
      table: T
      chainId: number
      keys: readonly StateKeyPrefix[]
    }): Promise<Database[T][]> {
      // The pending entries are taken before the store is asked: a batch that commits while
      // the read runs (PostgreSQL reads on another connection) leaves the overlay, and the
      // read may still have seen the store without it.
      const columns = Object.keys(keys[0] ?? {})
      let pendingRows: [string, Record<string, unknown> | null][]
      if (namesWholeKey(table, columns)) pendingRows = pendingOf(table, chainId, keys)
      else {
        const prefix = (values: Record<string, unknown>) =>
          columns.map((c) => String(values[c])).join('|')
        const wanted = new Set(keys.map(prefix))
        pendingRows = matching(table, chainId, (values) => wanted.has(prefix(values)))
      }
      const rows = await store.readState({ table, chainId, keys })
      if (pendingRows.length === 0) return rows
      const merged = new Map<string, Database[T]>()
      for (const row of rows) merged.set(keyOf(table, row as Record<string, unknown>), row)
      for (const [key, row] of pendingRows) {
        if (row === null) merged.delete(key)
        else merged.set(key, row as Database[T])
      }
      return [...merged.values()]
    },
    async tokenHolders({ chainId, token }) {
      const pendingRows = matching('token_balances', chainId, (values) => values.token === token)
      const holders = new Set(await store.tokenHolders({ chainId, token }))
      for (const [key, row] of pendingRows) {
        const address = String((row ?? parseKey('token_balances', key)).address)
        if (row === null) holders.delete(address)
        else holders.add(address)
      }
      return [...holders]
    },
    push(seq, changes) {
      for (const change of changes) {
        const entries = tableOf(change.table)
        const key = keyOf(change.table, change.key)
        entries.set(key, {
          seq,
          row: change.row as Record<string, unknown> | null,
          order: entries.get(key)?.order ?? entered++,
        })
      }
    },
    committed(seq) {
      for (const entries of overlay.values()) {
        for (const [key, entry] of entries) if (entry.seq <= seq) entries.delete(key)
      }
    },
    clear() {
      overlay.clear()
    },
    pending() {
      let n = 0
      for (const entries of overlay.values()) n += entries.size
      return n
    },
  }
}

/** Whether `columns` are every key column of `table` but `chain_id`. */
function namesWholeKey(table: StateTable, columns: readonly string[]): boolean {
  const key = STATE_KEYS[table] as readonly string[]
  return (
    columns.length === key.length - 1 && columns.every((c) => c !== 'chain_id' && key.includes(c))
  )
}

/** The key columns of a deleted row, back from its key string. */
function parseKey(table: StateTable, key: string): Record<string, unknown> {
  const parts = key.split('|')
  return Object.fromEntries((STATE_KEYS[table] as readonly string[]).map((k, i) => [k, parts[i]]))
}
