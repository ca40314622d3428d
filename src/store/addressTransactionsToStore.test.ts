import { expect, test } from 'vitest'
import { addressTransactionsToStore } from './addressTransactionsToStore.ts'
import type { ActivityRecord, AddressTransactionRecord } from './schema.ts'

const A = '0x00000000000000000000000000000000000000aa'
const B = '0x00000000000000000000000000000000000000bb'

const pair = (address: string, chain_id: number, block_number: number, tx_index: number) =>
  ({ address, chain_id, block_number, tx_index, block_time: 1 }) as AddressTransactionRecord

test('default: keeps the pairs whose address has no item in that transaction of that chain', () => {
  const activity = [pair(A, 1, 10, 0), pair(B, 1, 10, 1)] as unknown as ActivityRecord[]
  const addressTransactions = [
    pair(A, 1, 10, 0), // A's item covers it
    pair(B, 1, 10, 0), // B's item is in another transaction
    pair(A, 1, 10, 1),
    pair(B, 1, 10, 1), // covered
    pair(A, 8453, 10, 0), // another chain
    pair(A, 1, 11, 0), // another block
  ]
  expect(addressTransactionsToStore({ addressTransactions, activity })).toEqual([
    pair(B, 1, 10, 0),
    pair(A, 1, 10, 1),
    pair(A, 8453, 10, 0),
    pair(A, 1, 11, 0),
  ])
})
