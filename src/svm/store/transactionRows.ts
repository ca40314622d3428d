import type { Kysely } from 'kysely'
import type { Database } from '../../store/schema.ts'

export type StoredTransaction = {
  signature: string
  slot: number
  blockTime: number | null
  raw: string
}

/** Stored (finalized) transactions among `signatures`, by signature. */
export async function readTransactionRows({
  db,
  chain,
  signatures,
}: {
  db: Kysely<Database>
  chain: string
  signatures: readonly string[]
}): Promise<Map<string, StoredTransaction>> {
  if (signatures.length === 0) return new Map()
  const rows = await db
    .selectFrom('svm_transactions')
    .select(['signature', 'slot', 'block_time', 'raw'])
    .where('chain', '=', chain)
    .where('signature', 'in', signatures)
    .execute()
  return new Map(
    rows.map((row) => [
      row.signature,
      {
        signature: row.signature,
        slot: Number(row.slot),
        blockTime: row.block_time === null ? null : Number(row.block_time),
        raw: row.raw,
      },
    ]),
  )
}

export async function writeTransactionRows({
  db,
  chain,
  rows,
}: {
  db: Kysely<Database>
  chain: string
  rows: readonly StoredTransaction[]
}): Promise<void> {
  if (rows.length === 0) return
  await db
    .insertInto('svm_transactions')
    .values(
      rows.map((row) => ({
        chain,
        signature: row.signature,
        slot: row.slot,
        block_time: row.blockTime,
        raw: row.raw,
      })),
    )
    .onConflict((oc) => oc.columns(['chain', 'signature']).doNothing())
    .execute()
}
