import type { Kysely } from 'kysely'
import { nativeCurrency } from '../../chains/nativeCurrencies.ts'
import type { ChainConfig } from '../../config/types.ts'
import type { Database } from '../../store/schema.ts'
import { type HistoricalPrice, readHistoricalPrices } from '../prices/readHistoricalPrices.ts'
import { type Asset, type AssetPrice, readTokenPrices } from '../prices/readTokenPrices.ts'
import type { BalanceRow } from './readBalances.ts'

/** A balance with what prices say about it. */
export type PricedBalance = BalanceRow & {
  price?: AssetPrice
  /** amount × price; null when unpriced (or without decimals). */
  valueUsd: number | null
  historical?: HistoricalPrice[]
}

/** Position of a row in the list order: the cursor's keyset. */
export type BalancePosition = Pick<PricedBalance, 'valueUsd' | 'chainId' | 'address'>

/** `exclude_spam_tokens` drops tokens whose pricing pool holds less than this (USD). */
export const SPAM_POOL_SIZE_USD = 100

/**
 * List order: `value_usd` descending with unpriced rows last, ties by chain id, the native
 * row first within its chain, then token address.
 */
export function comparePositions(a: BalancePosition, b: BalancePosition): number {
  if (a.valueUsd !== b.valueUsd) {
    if (a.valueUsd === null) return 1
    if (b.valueUsd === null) return -1
    return b.valueUsd - a.valueUsd
  }
  if (a.chainId !== b.chainId) return a.chainId - b.chainId
  if (a.address === b.address) return 0
  if (a.address === 'native') return -1
  if (b.address === 'native') return 1
  return a.address < b.address ? -1 : 1
}

/**
 * Prices balance rows (per chain, one query for current prices and, when asked, the
 * hourly points), drops spam when asked, and sorts them in list order.
 */
export async function priceBalanceRows({
  db,
  chains,
  rows,
  historicalOffsets,
  withPools,
  excludeSpam,
}: {
  db: Kysely<Database>
  chains: readonly ChainConfig[]
  rows: readonly BalanceRow[]
  historicalOffsets: readonly number[] | undefined
  withPools: boolean
  excludeSpam: boolean
}): Promise<PricedBalance[]> {
  const byChain = new Map<number, BalanceRow[]>()
  for (const row of rows) {
    const list = byChain.get(row.chainId)
    if (list) list.push(row)
    else byChain.set(row.chainId, [row])
  }
  const out: PricedBalance[] = []
  for (const [chainId, chainRows] of byChain) {
    const chain = chains.find((c) => c.chainId === chainId)
    const assets: Asset[] = chainRows.map((r) => r.address)
    const prices = chain
      ? await readTokenPrices({ db, chain, assets, withPools })
      : new Map<Asset, AssetPrice>()
    // Rows read at a past block are priced from the hourly points at that block's time.
    const at = chainRows[0]?.at?.blockTime
    const past =
      chain && at !== undefined
        ? await readHistoricalPrices({ db, chain, assets, offsets: [0], at })
        : undefined
    const history =
      chain && historicalOffsets
        ? await readHistoricalPrices({
            db,
            chain,
            assets,
            offsets: historicalOffsets,
            ...(at !== undefined ? { at } : {}),
          })
        : undefined
    for (const row of chainRows) {
      const current = prices.get(row.address)
      // Spam is judged by today's pools, also for a past block.
      if (excludeSpam && row.address !== 'native') {
        if (!current || current.poolSizeUsd < SPAM_POOL_SIZE_USD) continue
      }
      const pastUsd = past?.get(row.address)?.[0]?.price_usd
      const price: AssetPrice | undefined = past
        ? pastUsd === undefined
          ? undefined
          : { priceUsd: pastUsd, poolSizeUsd: current?.poolSizeUsd ?? 0, pool: null }
        : current
      const decimals = row.address === 'native' ? nativeCurrency(chainId).decimals : row.decimals
      const valueUsd =
        price && decimals !== undefined
          ? (Number(row.amount) / 10 ** decimals) * price.priceUsd
          : null
      out.push({
        ...row,
        ...(price ? { price } : {}),
        valueUsd,
        ...(history ? { historical: history.get(row.address) ?? [] } : {}),
      })
    }
  }
  return out.sort(comparePositions)
}
