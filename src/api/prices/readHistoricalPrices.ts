import type { Kysely } from 'kysely'
import type { ChainConfig } from '../../config/types.ts'
import type { Database } from '../../store/schema.ts'
import type { Asset } from './readTokenPrices.ts'

export type HistoricalPrice = { offset_hours: number; price_usd: number }

const HOUR = 3600

/**
 * `historical_prices`: for each offset h, the last price at or before (head time − h hours),
 * from the hourly points (each the last price of an hour in which the price moved). "Now"
 * is the block time of the chain's indexed head, so answers match the data they sit beside.
 * Offsets without a known price are left out.
 */
export async function readHistoricalPrices({
  db,
  chain,
  assets,
  offsets,
}: {
  db: Kysely<Database>
  chain: Pick<ChainConfig, 'chainId' | 'usdc' | 'wrappedNative'>
  assets: readonly Asset[]
  offsets: readonly number[]
}): Promise<Map<Asset, HistoricalPrice[]>> {
  const out = new Map<Asset, HistoricalPrice[]>()
  if (offsets.length === 0 || assets.length === 0) return out
  const head = await db
    .selectFrom('blocks')
    .select('timestamp')
    .where('chain_id', '=', chain.chainId)
    .orderBy('number', 'desc')
    .limit(1)
    .executeTakeFirst()
  const now = head?.timestamp ?? Math.floor(Date.now() / 1000)
  for (const asset of new Set(assets)) {
    const token = asset === 'native' ? chain.wrappedNative : asset
    if (!token) continue
    const entries: HistoricalPrice[] = []
    for (const offset of offsets) {
      const at = now - offset * HOUR
      const price = chain.usdc.includes(token) ? 1 : await priceAt({ db, chain, token, at })
      if (price !== undefined) entries.push({ offset_hours: offset, price_usd: price })
    }
    out.set(asset, entries)
  }
  return out
}

/** The last hourly point at or before `at` whose price was set at or before `at`. */
async function priceAt({
  db,
  chain,
  token,
  at,
}: {
  db: Kysely<Database>
  chain: Pick<ChainConfig, 'chainId'>
  token: string
  at: number
}): Promise<number | undefined> {
  const rows = await db
    .selectFrom('token_price_hours')
    .select(['price_usd', 'block_time'])
    .where('chain_id', '=', chain.chainId)
    .where('token', '=', token)
    .where('hour', '<=', at)
    .orderBy('hour', 'desc')
    .limit(2)
    .execute()
  const hit = rows.find((r) => r.block_time <= at)
  return hit?.price_usd
}
