import type { Kysely } from 'kysely'
import { afterEach, describe, expect, test } from 'vitest'
import { createTestDatabase, DIALECTS } from '../../../test/support/createTestStore.ts'
import { readHistoricalPrices } from '../../api/prices/readHistoricalPrices.ts'
import { readTokenPrices } from '../../api/prices/readTokenPrices.ts'
import type { Address } from '../../evm/types.ts'
import { createPriceGraph } from '../../prices/createPriceGraph.ts'
import { resolvePrices } from '../../prices/resolvePrices.ts'
import { BATCH_MARKER } from '../applyBatch.ts'
import { createStore, type Store } from '../createStore.ts'
import { migrateToLatest } from '../migrateToLatest.ts'
import type { TokenPriceTable } from '../schema.ts'
import { toU256 } from '../u256.ts'

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
  /** A new database migrated up to the migration before 0018, closed and dropped after the test. */
  const storeAt0017 = async (): Promise<Store> => {
    const database = await createTestDatabase(dialect)
    const store = createStore({ url: database.url })
    cleanup = async () => {
      await store.close()
      await database.drop()
    }
    await migrateToLatest({ db: store.db, caps: store.caps, upTo: '0017_history_addresses' })
    return store
  }

  test('default: USD prices written before it read the same, and a revert restores them', async () => {
    const store = await storeAt0017()
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
    expect((await store.migrate()).applied[0]).toBe('0018_relative_prices')
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

  test('behavior: the price graph rewrites the USD rows relative at its first batch, at the same prices', async () => {
    const store = await storeAt0017()
    const db = store.db as unknown as Kysely<Record<string, Record<string, unknown>>>
    const FACTORY = addr(80)
    const WETH_USDC = addr(81)
    const TKA_WETH = addr(82)
    // As the 0017 indexer wrote them: WETH $3,000 (1,000 WETH / 3,000,000 USDC), TKA $3
    // (100,000 TKA / 100 WETH), in USD.
    const old = (token: Address, usd: number, pool: Address | null, size: number) => ({
      chain_id: CHAIN,
      token,
      price_usd: usd,
      pool,
      pool_size_usd: size,
      block_number: 5,
      block_time: 5000,
    })
    await db
      .insertInto('token_prices')
      .values([
        old(USDC, 1, null, 6e6),
        old(WETH, 3000, WETH_USDC, 6e6),
        old(TKA, 3, TKA_WETH, 6e5),
      ])
      .execute()
    await store.migrate()
    const before = await readTokenPrices({ db: store.db, chain, assets: [TKA, WETH] })
    for (const [address, decimals] of [
      [USDC, 6],
      [WETH, 18],
      [TKA, 18],
    ] as const) {
      await store.db
        .insertInto('tokens')
        .values({
          chain_id: CHAIN,
          address,
          standard: 'erc20',
          name: null,
          symbol: null,
          decimals,
          total_supply: null,
          rebasing: 0,
          first_block: 1,
          block_number: 1,
        })
        .execute()
    }
    const pool = (address: Address, token0: Address, token1: Address, r0: bigint, r1: bigint) => ({
      chain_id: CHAIN,
      address,
      type: 'uniswap_v2' as const,
      trusted: 1,
      factory: FACTORY,
      token0,
      token1,
      fee: null,
      reserve0: toU256(r0),
      reserve1: toU256(r1),
      sqrt_price_x96: null,
      tick: null,
      liquidity: null,
      block_number: 5,
    })
    const pools = [
      pool(WETH_USDC, USDC, WETH, 3_000_000n * 10n ** 6n, 1000n * 10n ** 18n),
      pool(TKA_WETH, WETH, TKA, 100n * 10n ** 18n, 100_000n * 10n ** 18n),
    ]
    await store.db.insertInto('pools').values(pools).execute()

    const graph = createPriceGraph({
      store,
      chain: {
        chainId: CHAIN,
        usdc: [USDC],
        wrappedNative: WETH,
        dexFactories: [{ type: 'uniswap_v2', address: FACTORY }],
        minPoolLiquidityUsd: 1000,
      },
    })
    await graph.load()
    // The first batch touches a pool without moving it: every price is compared with the store.
    const changes = graph.update({
      pools: [pools[0]!],
      decimals: new Map(),
      blockNumber: 6,
      blockTime: 7200,
    })
    const rows = new Map(
      changes.flatMap((c) =>
        c.table === 'token_prices' && c.row ? [[c.key.token, c.row as TokenPriceTable]] : [],
      ),
    )
    expect(rows.get(TKA)).toMatchObject({ parent: WETH, pool: TKA_WETH })
    expect(rows.get(TKA)?.price).toBeCloseTo(0.001, 15)
    expect(rows.get(TKA)?.pool_size).toBeCloseTo(200, 9)
    expect(rows.get(WETH)).toMatchObject({ parent: USDC, price: 3000, pool: WETH_USDC })
    const hours = changes.filter((c) => c.table === 'token_price_hours').map((c) => c.key.token)
    expect(hours.sort()).toEqual([WETH, TKA].sort())
    const after = resolvePrices({ rows: rows.values(), anchors: [USDC] })
    expect(after.get(TKA)?.priceUsd).toBeCloseTo(before.get(TKA)!.priceUsd, 12)
    expect(after.get(TKA)?.poolSizeUsd).toBeCloseTo(before.get(TKA)!.poolSizeUsd, 6)
    expect(after.get(WETH)?.priceUsd).toBe(before.get(WETH)?.priceUsd)
  })
})
