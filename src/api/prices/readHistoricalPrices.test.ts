import { afterEach, describe, expect, test } from 'vitest'
import { createTestStore, DIALECTS, type TestStore } from '../../../test/support/createTestStore.ts'
import type { Address } from '../../evm/types.ts'
import { readHistoricalPrices } from './readHistoricalPrices.ts'
import { readTokenPrices } from './readTokenPrices.ts'

const CHAIN = 1
const addr = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address
const USDC = addr(1)
const WETH = addr(2)
const TKB = addr(3)
const OLD = addr(4)
const chain = { chainId: CHAIN, usdc: [USDC], wrappedNative: WETH }
const HOUR = 3600
const H0 = 1_700_000_000 - (1_700_000_000 % HOUR)

/** An hourly point: `price` in `parent`'s units (null: USD), set at `block_time`. */
const point = (token: Address, hour: number, parent: Address | null, price: number) => ({
  chain_id: CHAIN,
  token,
  hour: H0 + hour * HOUR,
  parent,
  price,
  block_time: H0 + hour * HOUR + 60,
})

describe.each(DIALECTS)('prices relative to the route (%s)', (dialect) => {
  let t: TestStore | undefined
  afterEach(async () => {
    await t?.drop()
    t = undefined
  })

  test('default: a token priced through WETH moves with WETH without a row of its own', async () => {
    t = await createTestStore(dialect)
    const db = t.store.db
    // WETH: $2,000 at hour 0, $3,000 from hour 2. TKB: 0.001 WETH since hour 0, then from hour
    // 3 priced straight against USDC at $5. OLD: a USD row written before migration 0018.
    await db
      .insertInto('token_price_hours')
      .values([
        point(WETH, 0, USDC, 2000),
        point(WETH, 2, USDC, 3000),
        point(TKB, 0, WETH, 0.001),
        point(TKB, 3, USDC, 5),
        point(OLD, 1, null, 7),
      ])
      .execute()
    const current = (token: Address, parent: Address | null, price: number, size: number) => ({
      chain_id: CHAIN,
      token,
      parent,
      price,
      pool: addr(100 + Number(BigInt(token))),
      pool_size: size,
      pool_size_usd: 0,
      block_number: 10,
      block_time: H0 + 3 * HOUR,
    })
    await db
      .insertInto('token_prices')
      .values([
        current(WETH, USDC, 3000, 1_000_000),
        current(TKB, WETH, 0.002, 40),
        current(OLD, null, 7, 500),
      ])
      .execute()

    const now = await readTokenPrices({ db, chain, assets: [TKB, 'native', OLD, USDC, addr(9)] })
    expect(now.get(TKB)).toMatchObject({ priceUsd: 3000 * 0.002, poolSizeUsd: 40 * 3000 })
    expect(now.get('native')).toMatchObject({ priceUsd: 3000, poolSizeUsd: 1_000_000 })
    expect(now.get(OLD)).toMatchObject({ priceUsd: 7, poolSizeUsd: 500 })
    expect(now.get(USDC)?.priceUsd).toBe(1)
    expect(now.has(addr(9))).toBe(false)

    // Two minutes into hour 4: offsets 4..0 read hours 0..4.
    const history = await readHistoricalPrices({
      db,
      chain,
      assets: [TKB, OLD, 'native'],
      offsets: [4, 3, 2, 1, 0],
      at: H0 + 4 * HOUR + 120,
    })
    expect(history.get(TKB)).toEqual([
      { offset_hours: 4, price_usd: 2000 * 0.001 },
      { offset_hours: 3, price_usd: 2000 * 0.001 },
      { offset_hours: 2, price_usd: 3000 * 0.001 },
      { offset_hours: 1, price_usd: 5 },
      { offset_hours: 0, price_usd: 5 },
    ])
    expect(history.get(OLD)).toEqual([
      { offset_hours: 3, price_usd: 7 },
      { offset_hours: 2, price_usd: 7 },
      { offset_hours: 1, price_usd: 7 },
      { offset_hours: 0, price_usd: 7 },
    ])
    expect(history.get('native')?.map((p) => p.price_usd)).toEqual([2000, 2000, 3000, 3000, 3000])
  })

  test('edge: a token whose parents do not reach USD has no price', async () => {
    t = await createTestStore(dialect)
    const db = t.store.db
    const row = (token: Address, parent: Address) => ({
      chain_id: CHAIN,
      token,
      parent,
      price: 2,
      pool: null,
      pool_size: 1,
      pool_size_usd: 0,
      block_number: 1,
      block_time: 1,
    })
    // A parent without a row, and a cycle (inconsistent rows must not hang a request).
    await db
      .insertInto('token_prices')
      .values([row(TKB, addr(50)), row(addr(60), addr(61)), row(addr(61), addr(60))])
      .execute()
    const prices = await readTokenPrices({ db, chain, assets: [TKB, addr(60), addr(61)] })
    expect(prices.size).toBe(0)
  })
})
