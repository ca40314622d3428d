import type { Store } from '../../src/store/createStore.ts'
import { toU256 } from '../../src/store/u256.ts'
import type { DatasetPlan } from './createDatasetPlan.ts'
import { createRandom } from './createRandom.ts'

const HOUR = 3600
const HOURS_KEPT = 48

/**
 * Gives the first `count` tokens of the plan a price, as the indexer would have written it:
 * a trusted V2 pool against the chain's USDC, a current price and 48 hourly points. Replaces
 * earlier seeded prices, so a reused store can be re-seeded.
 */
export async function seedPrices({
  store,
  plan,
  chainId,
  usdc,
  count,
}: {
  store: Store
  plan: DatasetPlan
  chainId: number
  usdc: `0x${string}`
  count: number
}): Promise<void> {
  const random = createRandom(plan.seed + 7)
  const db = store.db
  const head = await db
    .selectFrom('blocks')
    .select(['number', 'timestamp'])
    .where('chain_id', '=', chainId)
    .orderBy('number', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow()
  const tokens = plan.tokens.slice(0, count)
  await db.deleteFrom('pools').where('chain_id', '=', chainId).execute()
  await db.deleteFrom('token_prices').where('chain_id', '=', chainId).execute()
  await db.deleteFrom('token_price_hours').where('chain_id', '=', chainId).execute()
  for (const [i, token] of tokens.entries()) {
    const price = 0.01 + random.int(100_000) / 100
    const pool = `0x${(0xb00000 + i).toString(16).padStart(40, '0')}`
    const usdcReserve = BigInt(1_000 + random.int(10_000_000))
    await db
      .insertInto('pools')
      .values({
        chain_id: chainId,
        address: pool,
        type: 'uniswap_v2',
        trusted: 1,
        factory: '0x5c69bee701ef814a2b6a3edd4b1652cb9cc5aa6f',
        token0: token,
        token1: usdc,
        fee: null,
        reserve0: toU256((usdcReserve * 10n ** 18n * 100n) / BigInt(Math.round(price * 100))),
        reserve1: toU256(usdcReserve * 10n ** 6n),
        sqrt_price_x96: null,
        tick: null,
        liquidity: null,
        block_number: head.number,
      })
      .execute()
    await db
      .insertInto('token_prices')
      .values({
        chain_id: chainId,
        token,
        parent: usdc,
        price,
        pool,
        pool_size: Number(usdcReserve) * 2,
        pool_size_usd: Number(usdcReserve) * 2,
        block_number: head.number,
        block_time: head.timestamp,
      })
      .execute()
    const hour = Math.floor(head.timestamp / HOUR) * HOUR
    await db
      .insertInto('token_price_hours')
      .values(
        Array.from({ length: HOURS_KEPT }, (_, h) => ({
          chain_id: chainId,
          token,
          hour: hour - h * HOUR,
          parent: usdc,
          price: price * (1 + (random.int(200) - 100) / 1000),
          block_time: hour - h * HOUR + 1,
        })),
      )
      .execute()
  }
}
