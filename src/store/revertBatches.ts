import type { Kysely, Transaction } from 'kysely'
import { FatalIndexerError } from '../internal/errors.ts'
import { BATCH_MARKER, keyString, writeState } from './applyBatch.ts'
import type { Row, RowWriter } from './createRowWriter.ts'
import type { DialectCaps } from './dialect.ts'
import { hexToBytes } from './hexBytes.ts'
import type { Database } from './schema.ts'
import {
  APPEND_TABLES,
  KEYED_HISTORY,
  type KeyedHistoryTable,
  type StateChange,
  type StateTable,
} from './stateTables.ts'

// biome-ignore lint/suspicious/noExplicitAny: generic over the tables.
type AnyDb = Kysely<any>

/** Work that must revert with the store's own tables, in the same transaction. */
export type RevertHook = (args: {
  trx: Transaction<Database>
  caps: DialectCaps
  writer: RowWriter
  chainId: number
  /** Everything after this block was removed. */
  afterBlock: number
}) => Promise<void>

/**
 * Undoes every kept batch that reaches past `toBlock`, newest change first, and removes their
 * history rows. A batch is undone whole, so the store may land below `toBlock` (at the start of
 * the oldest batch undone); the returned block is where it landed and where indexing resumes.
 * Throws `FatalIndexerError` when the blocks past `toBlock` were not kept for undo (a reorg
 * deeper than the finality depth): the store is left untouched.
 */
export async function revertBatches({
  trx,
  caps,
  writer,
  chainId,
  toBlock,
  alongside,
}: {
  trx: Transaction<Database>
  caps: DialectCaps
  writer: RowWriter
  chainId: number
  toBlock: number
  /** More work of the same revert, in its transaction (webhooks retract the reverted blocks). */
  alongside?: RevertHook
}): Promise<{ blockNumber: number; blockHash: string | undefined }> {
  const db = trx as unknown as AnyDb
  const checkpoint = await db
    .selectFrom('checkpoints')
    .select(['block_number', 'block_hash'])
    .where('chain_id', '=', chainId)
    .executeTakeFirst()
  if (!checkpoint || checkpoint.block_number <= toBlock) {
    return { blockNumber: checkpoint?.block_number ?? toBlock, blockHash: checkpoint?.block_hash }
  }

  const markers: { from_block: number; to_block: number }[] = await db
    .selectFrom('undo_log')
    .select(['from_block', 'to_block'])
    .where('chain_id', '=', chainId)
    .where('to_block', '>', toBlock)
    .where('table_name', '=', BATCH_MARKER)
    .orderBy('from_block')
    .execute()
  const landing = (markers[0]?.from_block ?? Number.POSITIVE_INFINITY) - 1
  // The kept batches must cover every block from the landing point to the checkpoint.
  let covered = landing
  for (const m of markers) if (m.from_block <= covered + 1) covered = Math.max(covered, m.to_block)
  if (markers.length === 0 || landing > toBlock || covered < checkpoint.block_number) {
    throw new FatalIndexerError(
      `Chain ${chainId}: cannot revert to block ${toBlock}; blocks after it are no longer kept for undo.`,
      {
        details:
          "The reorg is deeper than the finality depth. The indexer stops so that it never serves a corrupt state: raise the chain's finalityDepth, stop Scry, delete the chain's data with `scry reset-chain <chainId> --yes` and start again: it is indexed anew.",
      },
    )
  }

  const entries: { table_name: string; row_key: string; prev: string | null }[] = await db
    .selectFrom('undo_log')
    .select(['table_name', 'row_key', 'prev'])
    .where('chain_id', '=', chainId)
    .where('to_block', '>', landing)
    .orderBy('id', 'desc')
    .execute()
  // Newest first: what a key ends at is the previous row of its oldest undone change.
  const restore = new Map<string, StateChange>()
  const keyed = new Map<KeyedHistoryTable, Row[]>()
  for (const entry of entries) {
    if (entry.table_name === BATCH_MARKER) continue
    if (entry.table_name in KEYED_HISTORY) {
      const table = entry.table_name as KeyedHistoryTable
      const keys = keyed.get(table) ?? []
      // Entries name the address in hex; the rows hold it as bytes (migration 0017).
      const key = JSON.parse(entry.row_key)
      keys.push({ ...key, address: hexToBytes(key.address) })
      keyed.set(table, keys)
      continue
    }
    const table = entry.table_name as StateTable
    const key = JSON.parse(entry.row_key)
    restore.set(`${table}|${keyString(table, key)}`, {
      table,
      key,
      row: entry.prev === null ? null : JSON.parse(entry.prev),
    } as StateChange)
  }
  await writeState({ trx, writer, changes: [...restore.values()] })
  await db
    .deleteFrom('undo_log')
    .where('chain_id', '=', chainId)
    .where('to_block', '>', landing)
    .execute()
  for (const [table, column] of Object.entries(APPEND_TABLES)) {
    if (table in KEYED_HISTORY) continue
    await db.deleteFrom(table).where('chain_id', '=', chainId).where(column, '>', landing).execute()
  }
  for (const [table, keys] of keyed) await writer.delete(trx, table, keys)
  await alongside?.({ trx, caps, writer, chainId, afterBlock: landing })

  const block = await db
    .selectFrom('blocks')
    .select('hash')
    .where('chain_id', '=', chainId)
    .where('number', '=', landing)
    .executeTakeFirst()
  if (block) {
    await db
      .updateTable('checkpoints')
      .set({ block_number: landing, block_hash: block.hash })
      .where('chain_id', '=', chainId)
      .execute()
  } else {
    // Landed before the first indexed block: start over from the configured start block.
    await db.deleteFrom('checkpoints').where('chain_id', '=', chainId).execute()
  }
  return { blockNumber: landing, blockHash: block?.hash }
}
