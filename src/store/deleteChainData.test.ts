import { sql } from 'kysely'
import { afterEach, describe, expect, test } from 'vitest'
import { createTestStore, DIALECTS, type TestStore } from '../../test/support/createTestStore.ts'
import { createAccounts } from '../accounts/createAccounts.ts'
import { CHAIN_DATA_TABLES, CHAIN_KEPT_TABLES, deleteChainData } from './deleteChainData.ts'

/** Tables with a chain_id column, read from the migrated database itself. */
async function tablesWithChainId(t: TestStore): Promise<string[]> {
  const { rows } =
    t.store.dialect === 'postgres'
      ? await sql<{ name: string }>`
          select table_name as name from information_schema.columns
          where column_name = 'chain_id' and table_schema = current_schema()`.execute(t.store.db)
      : await sql<{ name: string }>`
          select m.name from sqlite_master m, pragma_table_info(m.name) c
          where m.type = 'table' and c.name = 'chain_id'`.execute(t.store.db)
  return rows.map((r) => r.name).sort()
}

for (const dialect of DIALECTS) {
  describe(`deleteChainData (${dialect})`, () => {
    let t: TestStore
    afterEach(async () => t?.drop())

    test('default: every table with a chain id is either reset or kept, by name', async () => {
      t = await createTestStore(dialect)
      expect(await tablesWithChainId(t)).toEqual(
        [...CHAIN_DATA_TABLES, ...CHAIN_KEPT_TABLES].sort(),
      )
    })

    test("behavior: the chain's rows go, other chains' and the accounts' stay; its pending deliveries are cancelled", async () => {
      t = await createTestStore(dialect)
      const { db } = t.store
      for (const chainId of [1, 2]) {
        await db
          .insertInto('checkpoints')
          .values({ chain_id: chainId, block_number: 9, block_hash: '0x09', updated_at: 0 })
          .execute()
        await db
          .insertInto('blocks')
          .values({
            chain_id: chainId,
            number: 9,
            hash: '0x09',
            parent_hash: '0x08',
            timestamp: 0,
            miner: '0x00',
          } as never)
          .execute()
      }
      const { id } = await createKey(t)
      for (const [n, status] of [
        [1, 'pending'],
        [2, 'delivered'],
      ] as const) {
        await db
          .insertInto('webhook_deliveries')
          .values({
            id: `d${n}`,
            subscription_id: 's',
            account_id: 'a',
            chain_id: 1,
            block_number: 9,
            type: 'activities',
            payload: '{}',
            event_count: 1,
            removed: 0,
            reverted: 0,
            status,
            attempts: 0,
            next_attempt_at: 0,
            created_at: 0,
          })
          .execute()
      }
      const counts = await deleteChainData({ store: t.store, chainId: 1 })
      expect(counts.get('checkpoints')).toBe(1)
      expect(counts.get('blocks')).toBe(1)
      expect(await t.store.getCheckpoint(1)).toBeUndefined()
      expect((await t.store.getCheckpoint(2))?.blockNumber).toBe(9)
      const blocks = await db.selectFrom('blocks').select('chain_id').execute()
      expect(blocks.map((b) => Number(b.chain_id))).toEqual([2])
      expect(await db.selectFrom('api_keys').select('id').execute()).toEqual([{ id }])
      const deliveries = await db
        .selectFrom('webhook_deliveries')
        .select(['id', 'status'])
        .orderBy('id')
        .execute()
      expect(deliveries).toEqual([
        { id: 'd1', status: 'cancelled' },
        { id: 'd2', status: 'delivered' },
      ])
    })
  })
}

async function createKey(t: TestStore) {
  const { info } = await createAccounts({ store: t.store }).createKey({ name: 'k' })
  return info
}
