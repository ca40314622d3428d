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
  const covered = new Set<string>()
  for (const item of activity) covered.add(pairKey(item))
  return addressTransactions.filter((record) => !covered.has(pairKey(record)))
}

const pairKey = (row: {
  address: string
  chain_id: number
  block_number: number
  tx_index: number
}) => `${row.address}|${row.chain_id}|${row.block_number}|${row.tx_index}`
