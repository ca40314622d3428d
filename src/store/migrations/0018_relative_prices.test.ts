import type { Kysely } from 'kysely'
import { afterEach, describe, expect, test } from 'vitest'
import { createTestDatabase, DIALECTS } from '../../../test/support/createTestStore.ts'
import { readHistoricalPrices } from '../../api/prices/readHistoricalPrices.ts'
import { readTokenPrices } from '../../api/prices/readTokenPrices.ts'
import type { Address } from '../../evm/types.ts'
import { BATCH_MARKER } from '../applyBatch.ts'
import { createStore, type Store } from '../createStore.ts'
import { migrateToLatest } from '../migrateToLatest.ts'

const CHAIN = 1
const addr = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address
const USDC = addr(1)
const WETH = addr(2)
const TKA = addr(3)
const chain = { chainId: CHAIN, usdc: [USDC], wrappedNative: WETH }

describe.each(DIALECTS)('migration 0018_relative_prices (%s)', (dialect) => {
  let cleanup: (() => Promise<void>) | undefined
  afterEach(async () => {
    await cleanup?.()
    cleanup = undefined
  })

  test('default: USD prices written before it read the same, and a revert restores them', async () => {
    const database = await createTestDatabase(dialect)
    const store: Store = createStore({ url: database.url })
    cleanup = async () => {
      await store.close()
      await database.drop()
    }
    await migrateToLatest({ db: store.db, caps: store.caps, upTo: '0017_history_addresses' })
    // As the 0017 indexer wrote them: USD prices, one batch (block 5) kept for undo that
    // changed TKA's price from $2 to $2.5 and wrote its hourly point.
    const db = store.db as unknown as Kysely<Record<string, Record<string, unknown>>>
    const price = (token: Address, usd: number, size: number) => ({
      chain_id: CHAIN,
      token,
      price_usd: usd,
      pool: token === USDC ? null : addr(90),
      pool_size_usd: size,
      block_number: 5,
      block_time: 5000,
    })
    await db
      .insertInto('token_prices')
      .values([price(WETH, 3000, 9e6), price(TKA, 2.5, 1e5)])
      .execute()
    await db
      .insertInto('token_price_hours')
      .values([
        { chain_id: CHAIN, token: TKA, hour: 0, price_usd: 2, block_time: 100 },
        { chain_id: CHAIN, token: TKA, hour: 3600, price_usd: 2.5, block_time: 5000 },
      ])
      .execute()
    await db
      .insertInto('checkpoints')
      .values({
        chain_id: CHAIN,
        block_number: 5,
        block_hash: `0x${'05'.repeat(32)}`,
        updated_at: 0,
      })
      .execute()
    const undo = (table_name: string, row_key: unknown, prev: unknown) => ({
      chain_id: CHAIN,
      from_block: 5,
      to_block: 5,
      table_name,
      row_key: JSON.stringify(row_key),
      prev: prev === null ? null : JSON.stringify(prev),
    })
    await db
      .insertInto('undo_log')
      .values([
        undo(BATCH_MARKER, {}, null),
        undo(
          'token_prices',
          { chain_id: CHAIN, token: TKA },
          { ...price(TKA, 2, 8e4), block_number: 1 },
        ),
        undo('token_price_hours', { chain_id: CHAIN, token: TKA, hour: 3600 }, null),
      ])
      .execute()

    const read = async () => {
      const now = await readTokenPrices({ db: store.db, chain, assets: [TKA, 'native'] })
      const then = await readHistoricalPrices({
        db: store.db,
        chain,
        assets: [TKA],
        offsets: [1, 0],
        at: 5100,
      })
      return {
        tka: now.get(TKA) && { ...now.get(TKA), pool: null },
        native: now.get('native')?.priceUsd,
        history: then.get(TKA),
      }
    }
    expect(await store.migrate()).toEqual({ applied: ['0018_relative_prices'] })
    expect(await read()).toEqual({
      tka: { priceUsd: 2.5, poolSizeUsd: 1e5, pool: null },
      native: 3000,
      history: [
        { offset_hours: 1, price_usd: 2 },
        { offset_hours: 0, price_usd: 2.5 },
      ],
    })
    const stored = await store.db.selectFrom('token_prices').selectAll().orderBy('token').execute()
    expect(stored.map((r) => [r.token, r.parent, r.price, r.pool_size])).toEqual([
      [WETH, null, 3000, 9e6],
      [TKA, null, 2.5, 1e5],
    ])

    // The undo entry was rewritten to the new columns: the revert restores $2.
    await store.revert({ chainId: CHAIN, toBlock: 4 })
    expect(await read()).toEqual({
      tka: { priceUsd: 2, poolSizeUsd: 8e4, pool: null },
      native: 3000,
      history: [
        { offset_hours: 1, price_usd: 2 },
        { offset_hours: 0, price_usd: 2 },
      ],
    })
  })
})
