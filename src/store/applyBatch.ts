import type { Insertable, Transaction } from 'kysely'
import { getOrInsertComputed } from '../utils/getOrInsertComputed.ts'
import { addressTransactionsToStore } from './addressTransactionsToStore.ts'
import type { Row, RowWriter } from './createRowWriter.ts'
import { createHexToBytes } from './hexBytes.ts'
import type {
  ActivityRecord,
  AddressTransactionRecord,
  Database,
  LogRecord,
  TransactionRecord,
  TransferRecord,
} from './schema.ts'
import {
  KEYED_HISTORY,
  type KeyedHistoryTable,
  STATE_KEYS,
  type StateChange,
  type StateTable,
} from './stateTables.ts'
import { toStoredActivity } from './toStoredActivity.ts'
import { toStoredAddressTransaction } from './toStoredAddressTransaction.ts'
import { toStoredTransaction } from './toStoredTransaction.ts'
import { toStoredTransfer } from './toStoredTransfer.ts'

/** Everything one batch of blocks writes, committed in one transaction with the checkpoint. */
export type BatchWrite = {
  chainId: number
  fromBlock: number
  toBlock: number
  toHash: string
  /** Record undo entries so the batch can be reverted (blocks inside the finality depth). */
  keepUndo: boolean
  blocks: Insertable<Database['blocks']>[]
  transactions: TransactionRecord[]
  /** Stored with their transactions (packed, migrations 0022 and 0023). */
  logs: LogRecord[]
  /** Every (address, transaction) pair; the store keeps those without an activity item. */
  addressTransactions: AddressTransactionRecord[]
  transfers: TransferRecord[]
  activity: ActivityRecord[]
  /** Final state of every key the batch changed; at most one change per key. */
  state: StateChange[]
  /** Webhook deliveries the batch produced; committed with it, never apart. */
  outbox?: Insertable<Database['webhook_deliveries']>[]
}

/** Marker row in undo_log: every kept batch has one, even when it changed no state. */
export const BATCH_MARKER = ''

/** Writes a batch with its checkpoint, inside the caller's transaction. */
export async function applyBatch({
  trx,
  writer,
  batch,
}: {
  trx: Transaction<Database>
  writer: RowWriter
  batch: BatchWrite
}): Promise<void> {
  await writer.insert(trx, 'blocks', batch.blocks)
  const bytes = createHexToBytes()
  const logsOf = logsByTransaction(batch.logs)
  // The rows below come from one builder function each: their columns are the first row's.
  const insertBuilt = (table: string, rows: readonly Row[]) =>
    writer.insert(trx, table, rows, Object.keys(rows[0] ?? {}))
  await insertBuilt(
    'transactions',
    batch.transactions.map((tx) =>
      toStoredTransaction(tx, logsOf.get(tx.block_number)?.get(tx.tx_index) ?? [], bytes),
    ),
  )
  const addressTransactions = addressTransactionsToStore(batch)
  await insertBuilt(
    'address_transactions',
    inAddressOrder(addressTransactions.map((record) => toStoredAddressTransaction(record, bytes))),
  )
  await insertBuilt(
    'transfers',
    batch.transfers.map((record) => toStoredTransfer(record, bytes)),
  )
  await insertBuilt(
    'activity',
    inAddressOrder(batch.activity.map((record) => toStoredActivity(record, bytes))),
  )
  await writer.insert(trx, 'webhook_deliveries', batch.outbox ?? [])

  const changes = lastPerKey(batch.state)
  if (batch.keepUndo) {
    const undo: Row[] = [undoRow(batch, BATCH_MARKER, {}, null)]
    const keyed: [KeyedHistoryTable, readonly Row[]][] = [
      ['activity', batch.activity],
      ['address_transactions', addressTransactions],
    ]
    for (const [table, rows] of keyed) {
      for (const row of rows)
        undo.push(undoRow(batch, table, pick(row, KEYED_HISTORY[table]), null))
    }
    for (const [table, group] of groupByTable(changes)) {
      const keys = group.map((c) => c.key as Row)
      const stored = await writer.select(trx, table, keys)
      const prev = new Map(stored.map((row) => [keyString(table, row), row]))
      for (const key of keys) {
        undo.push(undoRow(batch, table, key, prev.get(keyString(table, key)) ?? null))
      }
    }
    await insertBuilt('undo_log', undo)
  }
  await writeState({ trx, writer, changes })

  await writer.upsert(
    trx,
    'checkpoints',
    ['chain_id'],
    [
      {
        chain_id: batch.chainId,
        block_number: batch.toBlock,
        block_hash: batch.toHash,
        updated_at: Math.floor(Date.now() / 1000),
      },
    ],
  )
}

/**
 * A batch's logs by block and transaction index, each list in log-index order. Pure. Keyed by
 * numbers, not a `block:index` string a log and a transaction (~60,000 strings per 20,000
 * transfers).
 */
function logsByTransaction(logs: readonly LogRecord[]): Map<number, Map<number, LogRecord[]>> {
  const by = new Map<number, Map<number, LogRecord[]>>()
  for (const log of logs) {
    const block = getOrInsertComputed(by, log.block_number, newBlock)
    const list = block.get(log.tx_index)
    if (list) list.push(log)
    else block.set(log.tx_index, [log])
  }
  for (const block of by.values()) {
    for (const list of block.values()) {
      if (list.length > 1) list.sort((a, b) => a.log_index - b.log_index)
    }
  }
  return by
}

const newBlock = () => new Map<number, LogRecord[]>()

function undoRow(batch: BatchWrite, table: string, key: Row, prev: Row | null): Row {
  return {
    chain_id: batch.chainId,
    from_block: batch.fromBlock,
    to_block: batch.toBlock,
    table_name: table,
    row_key: JSON.stringify(key),
    prev: prev === null ? null : JSON.stringify(prev),
  }
}

function pick(row: Row, columns: readonly string[]): Row {
  return Object.fromEntries(columns.map((c) => [c, row[c]]))
}

/** A row's key columns as one string, in `STATE_KEYS` order. */
export function keyString(table: StateTable, row: Row): string {
  return STATE_KEYS[table].map((c) => String(row[c])).join('|')
}

/** One change per key, the last (PostgreSQL refuses an upsert that touches a row twice). */
export function lastPerKey(changes: readonly StateChange[]): StateChange[] {
  const last = new Map<string, StateChange>()
  for (const change of changes) {
    last.set(`${change.table}|${keyString(change.table, change.key as Row)}`, change)
  }
  return [...last.values()]
}

function groupByTable(changes: readonly StateChange[]): Map<StateTable, StateChange[]> {
  const byTable = new Map<StateTable, StateChange[]>()
  for (const change of changes) {
    const group = byTable.get(change.table) ?? []
    group.push(change)
    byTable.set(change.table, group)
  }
  return byTable
}

/** Deletes and upserts, one bulk operation per table and kind (one change per key). */
export async function writeState({
  trx,
  writer,
  changes,
}: {
  trx: Transaction<Database>
  writer: RowWriter
  changes: readonly StateChange[]
}): Promise<void> {
  for (const [table, group] of groupByTable(changes)) {
    const deletes = group.filter((c) => c.row === null).map((c) => c.key as Row)
    const upserts = group.filter((c) => c.row !== null).map((c) => c.row as Row)
    await writer.delete(trx, table, deletes)
    // Rows of one table may differ in which optional columns they set: group by column set.
    const byColumns = new Map<string, Row[]>()
    for (const row of upserts) {
      const columns = Object.keys(row).join(',')
      const same = byColumns.get(columns)
      if (same) same.push(row)
      else byColumns.set(columns, [row])
    }
    for (const rows of byColumns.values()) await writer.upsert(trx, table, STATE_KEYS[table], rows)
  }
}

/**
 * Rows grouped by address, the groups in byte order, each group's rows in the order given. The
 * tables keyed by wallet first (`activity`, `address_transactions`, without rowid) then take a
 * batch's rows one leaf page after another instead of each row at another wallet's page: ~11 %
 * less of `applyBatch`'s CPU on SQLite (bench/README.md, 2026-11-28, fourth session). The rows
 * stored are the same. A batch's `createHexToBytes` gives an address one `Uint8Array`, so
 * grouping by identity is grouping by value (were it not, equal addresses would still come out
 * next to each other).
 */
function inAddressOrder<R extends { address: Uint8Array }>(rows: R[]): R[] {
  const groups = new Map<Uint8Array, R[]>()
  for (const row of rows) {
    const group = groups.get(row.address)
    if (group) group.push(row)
    else groups.set(row.address, [row])
  }
  const keys = [...groups.keys()].sort(Buffer.compare)
  const sorted: R[] = []
  for (const key of keys) for (const row of groups.get(key) as R[]) sorted.push(row)
  return sorted
}
