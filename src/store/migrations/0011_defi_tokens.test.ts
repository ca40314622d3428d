import { afterEach, describe, expect, test } from 'vitest'
import { createTestDatabase, DIALECTS } from '../../../test/support/createTestStore.ts'
import { createStore, type Store } from '../createStore.ts'
import { migrateToLatest } from '../migrateToLatest.ts'

const CHAIN = 8453
const token = (n: number) => `0x${n.toString(16).padStart(40, '0')}`

describe.each(DIALECTS)('migration 0011_defi_tokens (%s)', (dialect) => {
  let cleanup: (() => Promise<void>) | undefined
  afterEach(async () => {
    await cleanup?.()
    cleanup = undefined
  })

  test('default: ERC20 tokens stored before it are queued for the vault probe, NFTs not', async () => {
    const database = await createTestDatabase(dialect)
    const store: Store = createStore({ url: database.url })
    cleanup = async () => {
      await store.close()
      await database.drop()
    }
    await migrateToLatest({ db: store.db, caps: store.caps, upTo: '0010_indexer_leases' })
    const standards = ['erc20', 'erc721', 'erc20', 'erc1155', 'erc20']
    await store.db
      .insertInto('tokens')
      .values(
        standards.map((standard, i) => ({
          chain_id: i === 4 ? 1 : CHAIN,
          address: token(i + 1),
          standard,
          name: `T${i}`,
          symbol: `T${i}`,
          decimals: 18,
          total_supply: null,
          rebasing: 0,
          first_block: 1,
          block_number: 1,
        })) as never,
      )
      .execute()

    await migrateToLatest({ db: store.db, caps: store.caps, upTo: '0011_defi_tokens' })
    const queued = await store.db
      .selectFrom('defi_token_probes')
      .selectAll()
      .orderBy('chain_id')
      .orderBy('address')
      .execute()
    expect(queued.map((q) => [Number(q.chain_id), q.address])).toEqual([
      [1, token(5)],
      [CHAIN, token(1)],
      [CHAIN, token(3)],
    ])
    expect(await store.db.selectFrom('defi_tokens').selectAll().execute()).toEqual([])
  })
})
