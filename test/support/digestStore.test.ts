import { afterEach, describe, expect, test } from 'vitest'
import { toStoredTransaction } from '../../src/store/toStoredTransaction.ts'
import { createTestStore, DIALECTS, type TestStore } from './createTestStore.ts'
import { digestStore } from './digestStore.ts'

// The state comparisons of the world, resilience, deployment, standby and migration tests
// rest on this digest; until stop 27 it hashed every bytes column as `{}` (a key list given
// to JSON.stringify also filtered each Buffer's {type, data}) and compared none of them.
const opened: TestStore[] = []
afterEach(async () => {
  for (const s of opened.splice(0)) await s.drop()
})

describe('digestStore', () => {
  for (const dialect of DIALECTS) {
    test(`behavior: one changed byte of a bytes column changes the digest (${dialect})`, async () => {
      const t = await createTestStore(dialect)
      opened.push(t)
      const row = toStoredTransaction(
        {
          chain_id: 1,
          block_number: 5,
          tx_index: 0,
          hash: `0x${'11'.repeat(32)}`,
          block_hash: `0x${'22'.repeat(32)}`,
          block_time: 1_700_000_000,
          from_address: `0x${'33'.repeat(20)}`,
          to_address: `0x${'44'.repeat(20)}`,
          contract_address: null,
          value: '00',
          nonce: 0,
          gas_price: '00',
          gas_used: '00',
          tx_type: 2,
          input: `0xa9059cbb${'00'.repeat(12)}${'55'.repeat(20)}${'00'.repeat(31)}01`,
          success: 1,
        },
        [],
      )
      await t.store.db.insertInto('transactions').values(row).execute()
      const before = await digestStore(t.store)
      for (const column of ['hash', 'from_address', 'input'] as const) {
        const changed = Buffer.from(row[column] as Uint8Array)
        const last = changed.byteLength - 1
        changed.writeUInt8(changed.readUInt8(last) ^ 1, last)
        await t.store.db
          .updateTable('transactions')
          .set({ [column]: changed })
          .execute()
        expect((await digestStore(t.store)).transactions, column).not.toBe(before.transactions)
        await t.store.db
          .updateTable('transactions')
          .set({ [column]: row[column] })
          .execute()
        expect((await digestStore(t.store)).transactions, column).toBe(before.transactions)
      }
    })
  }
})
