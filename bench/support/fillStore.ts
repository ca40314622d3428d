import { sql } from 'kysely'
import { addressTransactionsToStore } from '../../src/store/addressTransactionsToStore.ts'
import type { BatchWrite } from '../../src/store/applyBatch.ts'
import type { Store } from '../../src/store/createStore.ts'
import type { DatasetOptions } from './generateDataset.ts'
import { generateDataset } from './generateDataset.ts'

export type FillCounts = Record<
  | 'blocks'
  | 'transactions'
  | 'logs'
  | 'address_transactions'
  | 'transfers'
  | 'activity'
  | 'native_balances'
  | 'token_balances'
  | 'tokens',
  number
>

/**
 * Writes the generated dataset through `store.applyBatch` (the indexer's own commit path,
 * without undo records), one transaction per batch of blocks; memory stays at one batch plus
 * the generator's per-holder arrays. `onProgress` is called about every `progressMs`.
 */
export async function fillStore({
  store,
  dataset,
  sqliteCacheMiB = 1024,
  progressMs = 15_000,
  onProgress,
}: {
  store: Store
  dataset: DatasetOptions
  /** Page cache of the filling connection (SQLite): random-order index inserts stay in memory. */
  sqliteCacheMiB?: number
  progressMs?: number
  onProgress?: (args: { counts: FillCounts; block: number; seconds: number }) => void
}): Promise<{ counts: FillCounts; seconds: number; lastBlock: number }> {
  if (store.dialect === 'sqlite') {
    await sql.raw(`pragma cache_size = -${sqliteCacheMiB * 1024}`).execute(store.db)
    await sql.raw(process.env.SYNC ?? 'pragma synchronous = NORMAL').execute(store.db)
  }
  const counts: FillCounts = {
    blocks: 0,
    transactions: 0,
    logs: 0,
    address_transactions: 0,
    transfers: 0,
    activity: 0,
    native_balances: 0,
    token_balances: 0,
    tokens: 0,
  }
  const started = performance.now()
  let reported = started
  let lastBlock = 0
  for (const batch of generateDataset(dataset)) {
    count(counts, batch)
    await store.applyBatch(batch)
    lastBlock = batch.toBlock
    const now = performance.now()
    if (onProgress && now - reported >= progressMs) {
      reported = now
      onProgress({ counts, block: lastBlock, seconds: (now - started) / 1000 })
    }
  }
  return { counts, seconds: (performance.now() - started) / 1000, lastBlock }
}

function count(counts: FillCounts, batch: BatchWrite) {
  counts.blocks += batch.blocks.length
  counts.transactions += batch.transactions.length
  counts.logs += batch.logs.length
  counts.address_transactions += addressTransactionsToStore(batch).length
  counts.transfers += batch.transfers.length
  counts.activity += batch.activity.length
  for (const change of batch.state) counts[change.table as keyof FillCounts]++
}
