import type { Address } from '../evm/types.ts'
import type { PricingPool } from './createPriceRoutes.ts'

const Q96 = 2 ** 96

export type Quoted = {
  pool: PricingPool
  /** Reserves in whole tokens (V3: the pool's balances). */
  human0: number
  human1: number
  /** What a trade at the current price can reach, in whole tokens (V3: in-range only). */
  depth0: number
  depth1: number
  /** Spot price: token1 per token0. */
  ratio: number
}

/** A route's pool in its parent's units: the parent's side plus the token's at `rel`. */
export function sizeInParent(q: Quoted, parent: Address, rel: number): number {
  return q.pool.token0 === parent ? q.human0 + q.human1 * rel : q.human1 + q.human0 * rel
}

/** Reserves in whole tokens and the spot price (token1 per token0); undefined if unusable. */
export function quote(pool: PricingPool, d0: number, d1: number): Quoted | undefined {
  if (pool.token0 === pool.token1) return undefined
  const human0 = Number(pool.reserve0) / 10 ** d0
  const human1 = Number(pool.reserve1) / 10 ** d1
  if (pool.type === 'uniswap_v2') {
    if (!(human0 > 0 && human1 > 0)) return undefined
    return { pool, human0, human1, depth0: human0, depth1: human1, ratio: human1 / human0 }
  }
  if (!pool.sqrtPriceX96 || pool.liquidity === null) return undefined
  // Liquidity parked outside the current range is in the balances but cannot be traded
  // against at this price: depth is the in-range virtual reserves L/√P and L·√P.
  const sqrt = Number(pool.sqrtPriceX96) / Q96
  const liquidity = Number(pool.liquidity)
  const ratio = sqrt * sqrt * 10 ** (d0 - d1)
  if (!Number.isFinite(ratio) || ratio <= 0) return undefined
  const depth0 = Math.min(human0, liquidity / sqrt / 10 ** d0)
  const depth1 = Math.min(human1, (liquidity * sqrt) / 10 ** d1)
  return { pool, human0, human1, depth0, depth1, ratio }
}
