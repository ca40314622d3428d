import type { Insertable, Kysely, Transaction } from 'kysely'
import type { DialectCaps } from './dialect.ts'
import { insertRows } from './insertRows.ts'
import type { Database } from './schema.ts'
import { STATE_KEYS, type StateChange, type StateTable } from './stateTables.ts'

/** Everything one batch of blocks writes, committed in one transaction with the checkpoint. */
export type BatchWrite = {
  chainId: number
  fromBlock: number
  toBlock: number
  toHash: string
  /** Record undo entries so the batch can be reverted (blocks inside the finality depth). */
  keepUndo: boolean
  blocks: Insertable<Database['blocks']>[]
  transactions: Insertable<Database['transactions']>[]
  logs: Insertable<Database['logs']>[]
  addressTransactions: Insertable<Database['address_transactions']>[]
  transfers: Insertable<Database['transfers']>[]
  activity: Insertable<Database['activity']>[]
  /** Final state of every key the batch changed; at most one change per key. */
  state: StateChange[]
  /** Webhook deliveries the batch produced; committed with it, never apart. */
  outbox?: Insertable<Database['webhook_deliveries']>[]
}

/** Marker row in undo_log: every kept batch has one, even when it changed no state. */
export const BATCH_MARKER = ''

// biome-ignore lint/suspicious/noExplicitAny: generic over the state tables.
type AnyDb = Kysely<any>

export async function applyBatch({
  trx,
  caps,
  batch,
}: {
  trx: Transaction<Database>
  caps: DialectCaps
  batch: BatchWrite
}): Promise<void> {
  const db = trx as unknown as AnyDb
  const { maxParams } = caps
  await insertRows({ db, table: 'blocks', rows: batch.blocks, maxParams })
  await insertRows({ db, table: 'transactions', rows: batch.transactions, maxParams })
  await insertRows({ db, table: 'logs', rows: batch.logs, maxParams })
  await insertRows({
    db,
    table: 'address_transactions',
    rows: batch.addressTransactions,
    maxParams,
  })
  await insertRows({ db, table: 'transfers', rows: batch.transfers, maxParams })
  await insertRows({ db, table: 'activity', rows: batch.activity, maxParams })
  await insertRows({ db, table: 'webhook_deliveries', rows: batch.outbox ?? [], maxParams })

  const undo: Record<string, unknown>[] = []
  if (batch.keepUndo) {
    undo.push(undoRow(batch, BATCH_MARKER, {}, null))
    for (const change of batch.state) {
      const prev = await selectByKey(db, change.table, change.key)
      undo.push(undoRow(batch, change.table, change.key, prev))
    }
  }
  await writeState({ db, caps, changes: batch.state })
  await insertRows({ db, table: 'undo_log', rows: undo, maxParams })

  await db
    .insertInto('checkpoints')
    .values({
      chain_id: batch.chainId,
      block_number: batch.toBlock,
      block_hash: batch.toHash,
      updated_at: Math.floor(Date.now() / 1000),
    })
    .onConflict((oc) =>
      oc.column('chain_id').doUpdateSet((eb) => ({
        block_number: eb.ref('excluded.block_number'),
        block_hash: eb.ref('excluded.block_hash'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute()
}

function undoRow(
  batch: BatchWrite,
  table: string,
  key: object,
  prev: Record<string, unknown> | null,
): Record<string, unknown> {
  return {
    chain_id: batch.chainId,
    from_block: batch.fromBlock,
    to_block: batch.toBlock,
    table_name: table,
    row_key: JSON.stringify(key),
    prev: prev === null ? null : JSON.stringify(prev),
  }
}

export async function selectByKey(
  db: AnyDb,
  table: StateTable,
  key: object,
): Promise<Record<string, unknown> | null> {
  let query = db.selectFrom(table).selectAll()
  for (const [column, value] of Object.entries(key)) query = query.where(column, '=', value)
  return ((await query.executeTakeFirst()) as Record<string, unknown> | undefined) ?? null
}

/** Upserts and deletes, grouped per table; upserts go in multi-row statements. */
export async function writeState({
  db,
  caps,
  changes,
}: {
  db: AnyDb
  caps: DialectCaps
  changes: readonly StateChange[]
}): Promise<void> {
  // One change per key (the last): PostgreSQL refuses an upsert that touches a row twice.
  const last = new Map<string, StateChange>()
  for (const change of changes) last.set(`${change.table}|${JSON.stringify(change.key)}`, change)
  const byTable = new Map<StateTable, { upserts: object[]; deletes: object[] }>()
  for (const change of last.values()) {
    let group = byTable.get(change.table)
    if (!group) {
      group = { upserts: [], deletes: [] }
      byTable.set(change.table, group)
    }
    if (change.row === null) group.deletes.push(change.key)
    else group.upserts.push(change.row)
  }
  for (const [table, { upserts, deletes }] of byTable) {
    const keys: readonly string[] = STATE_KEYS[table]
    for (const key of deletes) {
      let query = db.deleteFrom(table)
      for (const [column, value] of Object.entries(key)) query = query.where(column, '=', value)
      await query.execute()
    }
    const first = upserts[0]
    if (!first) continue
    const columns = Object.keys(first)
    const updates = columns.filter((c) => !keys.includes(c))
    const chunk = Math.max(1, Math.floor(caps.maxParams / columns.length))
    for (let i = 0; i < upserts.length; i += chunk) {
      await db
        .insertInto(table)
        .values(upserts.slice(i, i + chunk))
        .onConflict((oc) =>
          oc
            .columns(keys as string[])
            .doUpdateSet((eb) =>
              Object.fromEntries(updates.map((c) => [c, eb.ref(`excluded.${c}`)])),
            ),
        )
        .execute()
    }
  }
}
