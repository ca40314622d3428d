import type { Kysely } from 'kysely'
import type { ChainConfig } from '../../config/types.ts'
import type { Address } from '../../evm/types.ts'
import { type RelativeRow, resolvePrices } from '../../prices/resolvePrices.ts'
import type { Database } from '../../store/schema.ts'
import type { Asset } from './readTokenPrices.ts'
import { readWithParents } from './readWithParents.ts'

export type HistoricalPrice = { offset_hours: number; price_usd: number }

const HOUR = 3600

/**
 * `historical_prices`: for each offset h, the last price at or before (head time − h hours),
 * from the hourly points (each the last price of an hour in which the price moved, relative
 * to the route's parent as then), multiplied out with the parents' points of the same time.
 * "Now" is the block time of the chain's indexed head, so answers match the data they sit
 * beside. Offsets without a known price are left out.
 */
export async function readHistoricalPrices({
  db,
  chain,
  assets,
  offsets,
  at,
}: {
  db: Kysely<Database>
  chain: Pick<ChainConfig, 'chainId' | 'usdc' | 'wrappedNative'>
  assets: readonly Asset[]
  offsets: readonly number[]
  /** The time offsets count back from (unix seconds). Default: the indexed head's time. */
  at?: number
}): Promise<Map<Asset, HistoricalPrice[]>> {
  const out = new Map<Asset, HistoricalPrice[]>()
  if (offsets.length === 0 || assets.length === 0) return out
  const now =
    at ?? (await edgeBlockTime(db, chain.chainId, 'desc')) ?? Math.floor(Date.now() / 1000)
  const tokenOf = (asset: Asset) => (asset === 'native' ? chain.wrappedNative : asset)
  const tokens = [...new Set(assets.map(tokenOf).filter((t): t is Address => t !== null))]
  const byOffset = new Map<number, Map<string, number>>()
  for (const offset of new Set(offsets)) {
    const at = now - offset * HOUR
    const rows = await readWithParents({
      tokens,
      anchors: chain.usdc,
      read: (keys) => pointsAt({ db, chainId: chain.chainId, tokens: keys, at }),
    })
    const resolved = resolvePrices({ rows, anchors: chain.usdc })
    byOffset.set(offset, new Map([...resolved].map(([token, p]) => [token, p.priceUsd])))
  }
  // An anchor is 1 at any time the chain has blocks for, and unknown before, like any token.
  const anchorAsked = tokens.some((t) => chain.usdc.includes(t))
  const first = anchorAsked ? await edgeBlockTime(db, chain.chainId, 'asc') : undefined
  const anchorPrice = (offset: number) =>
    first !== undefined && now - offset * HOUR >= first ? 1 : undefined
  for (const asset of new Set(assets)) {
    const token = tokenOf(asset)
    if (!token) continue
    const entries: HistoricalPrice[] = []
    for (const offset of offsets) {
      const price = chain.usdc.includes(token)
        ? anchorPrice(offset)
        : byOffset.get(offset)?.get(token)
      if (price !== undefined) entries.push({ offset_hours: offset, price_usd: price })
    }
    out.set(asset, entries)
  }
  return out
}

/** The time of the chain's first (`asc`) or last (`desc`) stored block, if any. */
async function edgeBlockTime(
  db: Kysely<Database>,
  chainId: number,
  order: 'asc' | 'desc',
): Promise<number | undefined> {
  const row = await db
    .selectFrom('blocks')
    .select('timestamp')
    .where('chain_id', '=', chainId)
    .orderBy('number', order)
    .limit(1)
    .executeTakeFirst()
  return row === undefined ? undefined : Number(row.timestamp)
}

const READ_CHUNK = 500
/** Per token, the latest hourly point set at or before `at`. */
async function pointsAt({
  db,
  chainId,
  tokens,
  at,
}: {
  db: Kysely<Database>
  chainId: number
  tokens: readonly string[]
  at: number
}): Promise<RelativeRow[]> {
  const out: RelativeRow[] = []
  for (let i = 0; i < tokens.length; i += READ_CHUNK) {
    const chunk = tokens.slice(i, i + READ_CHUNK)
    // The hour of each token's latest point set by `at` (an index range per token), then
    // those points.
    const latest = await db
      .selectFrom('token_price_hours')
      .select((eb) => ['token', eb.fn.max('hour').as('hour')])
      .where('chain_id', '=', chainId)
      .where('token', 'in', chunk)
      .where('hour', '<=', at)
      .where('block_time', '<=', at)
      .groupBy('token')
      .execute()
    if (latest.length === 0) continue
    const rows = await db
      .selectFrom('token_price_hours')
      .select(['token', 'parent', 'price'])
      .where('chain_id', '=', chainId)
      .where((eb) =>
        eb(
          eb.refTuple('token', 'hour'),
          'in',
          latest.map((l) => eb.tuple(l.token, Number(l.hour))),
        ),
      )
      .execute()
    out.push(...rows)
  }
  return out
}
