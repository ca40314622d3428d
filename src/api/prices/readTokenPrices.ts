import type { Kysely } from 'kysely'
import type { ChainConfig } from '../../config/types.ts'
import type { PoolType } from '../../evm/poolTypes.ts'
import type { Address } from '../../evm/types.ts'
import { resolvePrices } from '../../prices/resolvePrices.ts'
import type { Database } from '../../store/schema.ts'
import { readWithParents } from './readWithParents.ts'

/** An asset as the API names it: a token address, or `native`. */
export type Asset = Address | 'native'

/** The pool a price comes from (balances `metadata=pools`). */
export type PricePool = { type: PoolType; address: Address; tokens: [Address, Address] }

export type AssetPrice = {
  priceUsd: number
  /** USD value of the pricing pool's reserves. */
  poolSizeUsd: number
  pool: PricePool | null
}

const READ_CHUNK = 500

/**
 * Current prices of assets on one chain, from the indexer's `token_prices`: each token's row
 * and its parents' up to USD (`readWithParents`), multiplied out by `resolvePrices`. The
 * native asset is priced as the chain's wrapped token; an anchor (USDC) is 1.00. Assets
 * without a price are absent from the map.
 */
export async function readTokenPrices({
  db,
  chain,
  assets,
  withPools = false,
}: {
  db: Kysely<Database>
  chain: Pick<ChainConfig, 'chainId' | 'usdc' | 'wrappedNative'>
  assets: readonly Asset[]
  withPools?: boolean
}): Promise<Map<Asset, AssetPrice>> {
  const tokenOf = (asset: Asset): Address | null =>
    asset === 'native' ? chain.wrappedNative : asset
  const tokens = [...new Set(assets.map(tokenOf).filter((t): t is Address => t !== null))]
  const byToken = new Map<string, AssetPrice>()
  for (let i = 0; i < tokens.length; i += READ_CHUNK) {
    const chunk = tokens.slice(i, i + READ_CHUNK)
    const rows = await readWithParents({
      tokens: chunk,
      anchors: chain.usdc,
      read: (keys) =>
        db
          .selectFrom('token_prices')
          .select(['token', 'parent', 'price', 'pool', 'pool_size'])
          .where('chain_id', '=', chain.chainId)
          .where('token', 'in', keys)
          .execute(),
    })
    const resolved = resolvePrices({ rows, anchors: chain.usdc })
    const wanted = new Set<string>(chunk)
    const priced = rows.filter((r) => wanted.has(r.token) && resolved.has(r.token))
    const pools = withPools
      ? await readPools({
          db,
          chainId: chain.chainId,
          addresses: priced.flatMap((r) => r.pool ?? []),
        })
      : new Map<string, PricePool>()
    for (const r of priced) {
      const price = resolved.get(r.token)
      if (!price) continue
      byToken.set(r.token, { ...price, pool: (r.pool && pools.get(r.pool)) || null })
    }
  }
  for (const anchor of chain.usdc) {
    if (!byToken.has(anchor)) byToken.set(anchor, { priceUsd: 1, poolSizeUsd: 0, pool: null })
  }
  const out = new Map<Asset, AssetPrice>()
  for (const asset of assets) {
    const token = tokenOf(asset)
    const price = token ? byToken.get(token) : undefined
    if (price) out.set(asset, price)
  }
  return out
}

async function readPools({
  db,
  chainId,
  addresses,
}: {
  db: Kysely<Database>
  chainId: number
  addresses: readonly string[]
}): Promise<Map<string, PricePool>> {
  if (addresses.length === 0) return new Map()
  const rows = await db
    .selectFrom('pools')
    .select(['address', 'type', 'token0', 'token1'])
    .where('chain_id', '=', chainId)
    .where('address', 'in', [...new Set(addresses)])
    .execute()
  return new Map(
    rows.flatMap((r) =>
      r.token0 && r.token1
        ? [
            [
              r.address,
              {
                type: r.type,
                address: r.address as Address,
                tokens: [r.token0 as Address, r.token1 as Address] as [Address, Address],
              },
            ],
          ]
        : [],
    ),
  )
}
