import { poolSpotPrice } from '../pools/poolSpotPrice.ts'
import type { Pool, PoolType } from '../pools/poolTypes.ts'

export type SvmPrice = {
  priceUsd: number
  /** USD value of the pricing pool's two vaults; undefined for the anchor itself. */
  liquidityUsd: number | undefined
  poolType: PoolType | undefined
  poolAddress: string | undefined
}

export type PoolQuote = {
  pool: Pool
  balanceA: bigint
  balanceB: bigint
  decimalsA: number
  decimalsB: number
}

/**
 * The price of `mint` through the most liquid of `quotes` whose other side has a price
 * (`priceOf`). Pure. Liquidity is the USD value of both vaults at the pool's own price.
 */
export function choosePoolPrice({
  mint,
  quotes,
  priceOf,
}: {
  mint: string
  quotes: readonly PoolQuote[]
  priceOf: (mint: string) => number | undefined
}): SvmPrice | undefined {
  let best: SvmPrice | undefined
  for (const quote of quotes) {
    const { pool } = quote
    const isA = pool.mintA === mint
    if (!isA && pool.mintB !== mint) continue
    const other = isA ? pool.mintB : pool.mintA
    const otherPrice = priceOf(other)
    if (otherPrice === undefined || otherPrice <= 0) continue
    const aInB = poolSpotPrice(quote)
    if (aInB === undefined || !Number.isFinite(aInB) || aInB <= 0) continue
    const priceUsd = isA ? aInB * otherPrice : otherPrice / aInB
    const priceA = isA ? priceUsd : otherPrice
    const priceB = isA ? otherPrice : priceUsd
    const liquidityUsd =
      (Number(quote.balanceA) / 10 ** quote.decimalsA) * priceA +
      (Number(quote.balanceB) / 10 ** quote.decimalsB) * priceB
    if (!best || liquidityUsd > (best.liquidityUsd ?? 0)) {
      best = { priceUsd, liquidityUsd, poolType: pool.type, poolAddress: pool.address }
    }
  }
  return best
}
