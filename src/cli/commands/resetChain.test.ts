import pg from 'pg'
import { afterAll, expect, test } from 'vitest'
import { createTestStore, type TestStore } from '../../../test/support/createTestStore.ts'
import { leaseKey } from '../../store/leaseKey.ts'
import { main } from '../main.ts'

const stores: TestStore[] = []
afterAll(async () => {
  for (const t of stores) await t.drop()
})

async function run(argv: string[]) {
  let out = ''
  let err = ''
  const code = await main(argv, {
    out: (text) => {
      out += text
    },
    err: (text) => {
      err += text
    },
  })
  return { code, out, err }
}

test('error: on PostgreSQL a chain whose lock an indexer holds is not reset; once it is free, it is', async () => {
  const t = await createTestStore('postgres')
  stores.push(t)
  await t.store.db
    .insertInto('checkpoints')
    .values({ chain_id: 8453, block_number: 7, block_hash: '0x07', updated_at: 0 })
    .execute()
  // An indexer of chain 8453 holds its lock (holdChainLease's key), in another session.
  const indexer = new pg.Client({ connectionString: t.url })
  await indexer.connect()
  await indexer.query('select pg_advisory_lock($1::bigint)', [leaseKey(8453).toString()])
  try {
    const busy = await run(['reset-chain', '8453', '--yes', '--database', t.url])
    expect(busy).toEqual({
      code: 1,
      out: '',
      err: 'error: An indexer is running chain 8453; it was not reset.\nStop every `scry start` that indexes the chain (its standbys too), reset it, then start them again.\n',
    })
    expect((await t.store.getCheckpoint(8453))?.blockNumber).toBe(7)
  } finally {
    await indexer.end()
  }
  const reset = await run(['reset-chain', '8453', '--yes', '--database', t.url])
  expect(reset.code).toBe(0)
  expect(reset.out).toBe(
    '  checkpoints: 1 rows deleted\nChain 8453 is reset; `scry start` indexes it again from its start block.\n',
  )
  expect(await t.store.getCheckpoint(8453)).toBeUndefined()
})

test('behavior: a chain the database holds nothing of is said so, not "reset"', async () => {
  const t = await createTestStore('sqlite')
  stores.push(t)
  const reset = await run(['reset-chain', '424242', '--yes', '--database', t.url])
  expect(reset).toEqual({
    code: 0,
    out: 'Chain 424242 has no indexed data in this database: nothing was deleted.\n',
    err: '',
  })
})
