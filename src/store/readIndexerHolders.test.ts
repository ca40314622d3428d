import pg from 'pg'
import { afterAll, expect, test } from 'vitest'
import { createTestStore, type TestStore } from '../../test/support/createTestStore.ts'
import { leaseKey } from './leaseKey.ts'
import { HEARTBEAT_STALE_SECONDS, readIndexerHolders } from './readIndexerHolders.ts'

const stores: TestStore[] = []
afterAll(async () => {
  for (const t of stores) await t.drop()
})

test("edge: a chain's lock held in another database on the same server is not this one's holder", async () => {
  const [mine, other] = [await createTestStore('postgres'), await createTestStore('postgres')]
  stores.push(mine, other)
  await mine.store.db
    .insertInto('indexer_leases')
    .values({ chain_id: 1, owner: 'o', host: 'h', pid: 1, since: 0 })
    .execute()
  // The other database's indexer of chain 1 holds its lock; this one's holder has died.
  const client = new pg.Client({ connectionString: other.url })
  await client.connect()
  try {
    await client.query('select pg_advisory_lock($1::bigint)', [leaseKey(1).toString()])
    expect((await readIndexerHolders(mine.store)).get(1)?.active).toBe(false)
    // Held in this database: active.
    const own = new pg.Client({ connectionString: mine.url })
    await own.connect()
    await own.query('select pg_advisory_lock($1::bigint)', [leaseKey(1).toString()])
    expect((await readIndexerHolders(mine.store)).get(1)?.active).toBe(true)
    await own.end()
  } finally {
    await client.end()
  }
})

test("edge: a holder whose heartbeat is over a minute old (frozen: it keeps its lock) gives no node head, so the chain's lag reads as unknown", async () => {
  const t = await createTestStore('postgres')
  stores.push(t)
  const now = Math.floor(Date.now() / 1000)
  const lease = { owner: 'o', host: 'h', pid: 1, since: 0, node_head: 100 }
  await t.store.db
    .insertInto('indexer_leases')
    .values([
      { chain_id: 1, ...lease, node_head_at: now - 5 },
      { chain_id: 2, ...lease, node_head_at: now - HEARTBEAT_STALE_SECONDS - 5 },
    ])
    .execute()
  const holders = await readIndexerHolders(t.store)
  expect(holders.get(1)?.nodeHead).toBe(100)
  expect(holders.get(2)?.nodeHead).toBeNull()
})
