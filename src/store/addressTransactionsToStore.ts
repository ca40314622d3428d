import { getOrInsertComputed } from '../utils/getOrInsertComputed.ts'
import type { ActivityRecord, AddressTransactionRecord } from './schema.ts'

/**
 * Which of a batch's (address, transaction) pairs `address_transactions` keeps: those the
 * address has no activity item in (migration 0019). A wallet's transactions are the
 * transactions of its activity items and these rows (`readWalletTransactions`), so each
 * pair is stored once: most pairs are a sender's or a recipient's, who have an item; what
 * is left is mostly the contracts a transaction called or whose logs it emitted. Pure.
 */
export function addressTransactionsToStore({
  addressTransactions,
  activity,
}: {
  addressTransactions: readonly AddressTransactionRecord[]
  activity: readonly ActivityRecord[]
}): AddressTransactionRecord[] {
  // By chain, then address (the records' own strings), the transactions' numbers: no key
  // string is made per item and per pair (~100,000 a 20,000-transfer chain).
  const covered = new Map<number, Map<string, Set<number>>>()
  for (const item of activity) {
    const byAddress = getOrInsertComputed(covered, item.chain_id, newMap<string, Set<number>>)
    getOrInsertComputed(byAddress, item.address, newSet<number>).add(txNumber(item))
  }
  return addressTransactions.filter(
    (record) => !covered.get(record.chain_id)?.get(record.address)?.has(txNumber(record)),
  )
}

/**
 * A transaction's block and index as one number: below 2^53 while blocks stay below 2^32
 * and a block holds fewer than 2^21 transactions (a block's gas allows a few thousand).
 */
const txNumber = (row: { block_number: number; tx_index: number }) =>
  row.block_number * 2 ** 21 + row.tx_index

const newMap = <K, V>() => new Map<K, V>()
const newSet = <T>() => new Set<T>()
