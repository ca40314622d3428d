import { createHash } from 'node:crypto'
import type { Store } from '../../src/store/createStore.ts'
import { type APPEND_TABLES, STATE_KEYS } from '../../src/store/stateTables.ts'

/** Primary-key order of the append-only tables, for a stable digest. */
const APPEND_ORDER: Record<keyof typeof APPEND_TABLES, string[]> = {
  blocks: ['chain_id', 'number'],
  transactions: ['chain_id', 'block_number', 'tx_index'],
  address_transactions: ['address', 'chain_id', 'block_number', 'tx_index'],
  transfers: ['chain_id', 'block_number', 'seq'],
  activity: ['address', 'chain_id', 'block_number', 'seq'],
}

/**
 * A digest per table of everything the indexer derived (history, state, checkpoint without
 * its wall-clock time; not the undo log, which depends on where the head was, nor the batch
 * block of state rows). Two stores
 * with equal digests hold the same data.
 */
export async function digestStore(store: Store): Promise<Record<string, string>> {
  const db = store.db as any
  const out: Record<string, string> = {}
  const tables: [string, readonly string[]][] = [
    ...Object.entries(APPEND_ORDER),
    ...Object.entries(STATE_KEYS),
  ]
  const stateTables = new Set(Object.keys(STATE_KEYS))
  for (const [table, order] of tables) {
    let query = db.selectFrom(table).selectAll()
    for (const column of order) query = query.orderBy(column)
    const rows: Record<string, unknown>[] = await query.execute()
    const hash = createHash('sha256')
    for (const row of rows) {
      // A state row's `block_number` is the last block of the batch that wrote it: it moves
      // with where batches ended (a takeover or following the head one block at a time), not
      // with the data. Every other column must be equal.
      const { block_number, ...rest } = row
      const kept = stateTables.has(table) ? rest : row
      hash.update(`${JSON.stringify(kept, Object.keys(kept).sort())}\n`)
      // Bytes columns as hex: a key list given to JSON.stringify also filters what a Buffer's
      // toJSON gives ({type, data}), which would hash every byte column as `{}`.
      for (const key of Object.keys(kept).sort()) {
        const value = kept[key]
        if (value instanceof Uint8Array)
          hash.update(`${key}=${Buffer.from(value).toString('hex')}\n`)
      }
    }
    out[table] = `${rows.length}:${hash.digest('hex').slice(0, 16)}`
  }
  const checkpoints = await db
    .selectFrom('checkpoints')
    .select(['chain_id', 'block_number', 'block_hash'])
    .orderBy('chain_id')
    .execute()
  out.checkpoints = JSON.stringify(checkpoints)
  return out
}
