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
 * (`priceOf`). Pure. A pool is as liquid as twice the USD value of its already-priced side
 * that a trade at its price can reach (constant product: that vault; concentrated: the
 * in-range virtual reserve, capped by the vault), so neither a pool's own price nor
 * liquidity parked out of range can make it look deep. A route is only as liquid as its
 * weakest hop. `liquidityUsd` is the pricing pool's two vaults at these prices.
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
    const depth = pricedDepth({ quote, side: isA ? 'B' : 'A' })
    const depthUsd = 2 * (depth / 10 ** (isA ? quote.decimalsB : quote.decimalsA)) * otherPrice
    const routeLiquidityUsd = Math.min(depthUsd, otherRoute.routeLiquidityUsd)
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

/** Base units of one side that a trade at the pool's current price can reach. */
function pricedDepth({ quote, side }: { quote: PoolQuote; side: 'A' | 'B' }): number {
  const { state } = quote.pool
  const vault = Number(side === 'A' ? quote.balanceA : quote.balanceB)
  switch (state.kind) {
    case 'reserves':
      return Math.max(0, vault - Number(side === 'A' ? state.owedA : state.owedB))
    case 'sqrtPrice': {
      // Virtual reserves of liquidity L at √P (base units): A = L/√P, B = L·√P.
      const sqrt = Number(state.sqrtPriceX64) / 2 ** 64
      const liquidity = Number(state.liquidity)
      const virtual = side === 'A' ? liquidity / sqrt : liquidity * sqrt
      return Math.min(vault, Number.isFinite(virtual) ? virtual : 0)
    }
    default: {
      const never: never = state
      throw new Error(`unknown pool state ${JSON.stringify(never)}`)
    }
  }
}
