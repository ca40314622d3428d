import type { Store } from '../../src/store/createStore.ts'
import type { TransactionRecord } from '../../src/store/schema.ts'
import { fromStoredTransaction } from '../../src/store/toStoredTransaction.ts'

/** Every stored transaction with its block's hash and time, as records. */
export async function readStoredTransactions(
  store: Pick<Store, 'db'>,
): Promise<TransactionRecord[]> {
  const rows = await store.db
    .selectFrom('transactions as t')
    .innerJoin('blocks as b', (join) =>
      join.onRef('b.chain_id', '=', 't.chain_id').onRef('b.number', '=', 't.block_number'),
    )
    .selectAll('t')
    .select(['b.hash as block_hash', 'b.timestamp as block_time'])
    .orderBy('t.chain_id')
    .orderBy('t.block_number')
    .orderBy('t.tx_index')
    .execute()
  return rows.map((row) =>
    fromStoredTransaction(row, { hash: row.block_hash, timestamp: row.block_time }),
  )
}
