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

/** A known price and the liquidity of the route behind it (Infinity for USDC itself). */
export type RoutePrice = { priceUsd: number; routeLiquidityUsd: number }

/**
 * The price of `mint` through the most liquid of `quotes` whose other side has a price
 * (`priceOf`). Pure. A pool's liquidity is the USD value of both vaults at its own price; a
 * route is only as liquid as its weakest hop, so a deep pool against a thinly priced token
 * does not win over a shallower pool against USDC. `liquidityUsd` is the pricing pool's.
 */
export function choosePoolPrice({
  mint,
  quotes,
  priceOf,
}: {
  mint: string
  quotes: readonly PoolQuote[]
  priceOf: (mint: string) => RoutePrice | undefined
}): (SvmPrice & { routeLiquidityUsd: number }) | undefined {
  let best: (SvmPrice & { routeLiquidityUsd: number }) | undefined
  for (const quote of quotes) {
    const { pool } = quote
    const isA = pool.mintA === mint
    if (!isA && pool.mintB !== mint) continue
    const other = isA ? pool.mintB : pool.mintA
    const otherRoute = priceOf(other)
    if (otherRoute === undefined || otherRoute.priceUsd <= 0) continue
    const otherPrice = otherRoute.priceUsd
    const aInB = poolSpotPrice(quote)
    if (aInB === undefined || !Number.isFinite(aInB) || aInB <= 0) continue
    const priceUsd = isA ? aInB * otherPrice : otherPrice / aInB
    const priceA = isA ? priceUsd : otherPrice
    const priceB = isA ? otherPrice : priceUsd
    const liquidityUsd =
      (Number(quote.balanceA) / 10 ** quote.decimalsA) * priceA +
      (Number(quote.balanceB) / 10 ** quote.decimalsB) * priceB
    const routeLiquidityUsd = Math.min(liquidityUsd, otherRoute.routeLiquidityUsd)
    if (!best || routeLiquidityUsd > best.routeLiquidityUsd) {
      best = {
        priceUsd,
        liquidityUsd,
        poolType: pool.type,
        poolAddress: pool.address,
        routeLiquidityUsd,
      }
    }
  }
  return best
}
