import type { Store } from './createStore.ts'
import type { Database } from './schema.ts'

/**
 * Tables that hold a chain's indexed data, deleted by `deleteChainData`, in this order
 * (`token_balances` before `token_holder_counts`: its triggers keep the counts).
 */
export const CHAIN_DATA_TABLES = [
  'checkpoints',
  'undo_log',
  'blocks',
  'transactions',
  'address_transactions',
  'transfers',
  'activity',
  'native_balances',
  'token_balances',
  'token_holder_counts',
  'nft_holdings',
  'nft_metadata',
  'tokens',
  'approvals',
  'pools',
  'token_prices',
  'token_price_hours',
  'defi_tokens',
  'defi_token_probes',
] as const satisfies readonly (keyof Database)[]

/**
 * Tables with a `chain_id` that a reset keeps: who holds the chain's lock (its `stopped`
 * cleared), and the webhook
 * delivery log (its pending deliveries of the chain are cancelled: they may describe blocks of
 * a branch the node no longer has).
 */
export const CHAIN_KEPT_TABLES = [
  'indexer_leases',
  'webhook_deliveries',
] as const satisfies readonly (keyof Database)[]

/**
 * Deletes everything Scry indexed of chain `chainId`, in one transaction, so that the next
 * indexer of the chain starts again from its start block (`scry reset-chain`). Accounts, keys,
 * subscriptions, ABIs and other chains stay. The caller holds the chain: no indexer writes it.
 * Returns the rows deleted per table (and the deliveries cancelled).
 */
export async function deleteChainData({
  store,
  chainId,
  onTable,
}: {
  store: Store
  chainId: number
  /** Called as each table is done (a large chain takes a while). */
  onTable?: (table: string, rows: number) => void
}): Promise<Map<string, number>> {
  return store.db.transaction().execute(async (trx) => {
    const counts = new Map<string, number>()
    for (const table of CHAIN_DATA_TABLES) {
      const result = await trx.deleteFrom(table).where('chain_id', '=', chainId).executeTakeFirst()
      const rows = Number(result.numDeletedRows)
      counts.set(table, rows)
      onTable?.(table, rows)
    }
    const cancelled = await trx
      .updateTable('webhook_deliveries')
      .set({ status: 'cancelled' })
      .where('chain_id', '=', chainId)
      .where('status', '=', 'pending')
      .executeTakeFirst()
    counts.set('webhook_deliveries (pending, cancelled)', Number(cancelled.numUpdatedRows))
    // The chain starts again: it is no longer stopped (replicas stop warning).
    await trx
      .updateTable('indexer_leases')
      .set({ stopped: null })
      .where('chain_id', '=', chainId)
      .execute()
    return counts
  })
}
