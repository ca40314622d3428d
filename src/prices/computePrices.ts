import type { Address } from '../evm/types.ts'
import { createMaxHeap } from '../utils/createMaxHeap.ts'
import type { PoolType } from './poolTypes.ts'

/** A trusted pool with its current state, as pricing needs it. */
export type PricingPool = {
  address: Address
  type: PoolType
  token0: Address
  token1: Address
  /** V2 reserves; V3 the pool's token balances (raw units). */
  reserve0: bigint
  reserve1: bigint
  /** V3 only: the pool's price and its in-range liquidity. */
  sqrtPriceX96: bigint | null
  liquidity: bigint | null
}

export type TokenPrice = {
  priceUsd: number
  /** The pool the price comes from; null for a USD anchor. */
  pool: Address | null
  /** USD value of that pool's reserves (for an anchor: of its deepest pool). */
  poolSizeUsd: number
}

const Q96 = 2 ** 96

/**
 * Prices every token reachable from the USD anchors through trusted pools. Each token is
 * priced through the route of highest liquidity towards an anchor: a route is as liquid as
 * its thinnest pool, and a pool's liquidity is twice the USD value of its already-priced
 * side (what someone had to deposit; a pool cannot make itself look deep by its own price).
 * Pools below `minLiquidityUsd` never price anything. Pure.
 */
export function computePrices({
  pools,
  decimals,
  anchors,
  minLiquidityUsd,
}: {
  pools: readonly PricingPool[]
  decimals: ReadonlyMap<Address, number>
  anchors: readonly Address[]
  minLiquidityUsd: number
}): Map<Address, TokenPrice> {
  const byToken = new Map<Address, Quoted[]>()
  for (const pool of pools) {
    const quoted = quote(pool, decimals)
    if (!quoted) continue
    for (const token of [pool.token0, pool.token1]) {
      const list = byToken.get(token) ?? []
      list.push(quoted)
      byToken.set(token, list)
    }
  }

  type Candidate = { token: Address; price: number; pool: Quoted | null; width: number }
  const heap = createMaxHeap<Candidate>((c) => c.width)
  const done = new Map<Address, Candidate>()
  for (const token of anchors) heap.push({ token, price: 1, pool: null, width: Infinity })
  for (let next = heap.pop(); next; next = heap.pop()) {
    if (done.has(next.token)) continue
    done.set(next.token, next)
    for (const q of byToken.get(next.token) ?? []) {
      const isToken0 = q.pool.token0 === next.token
      const other = isToken0 ? q.pool.token1 : q.pool.token0
      if (done.has(other)) continue
      const liquidity = 2 * (isToken0 ? q.depth0 : q.depth1) * next.price
      if (!(liquidity >= minLiquidityUsd)) continue
      // q.ratio = token1 per token0.
      const price = isToken0 ? next.price / q.ratio : next.price * q.ratio
      if (!Number.isFinite(price) || price <= 0) continue
      heap.push({ token: other, price, pool: q, width: Math.min(next.width, liquidity) })
    }
  }

  const prices = new Map<Address, TokenPrice>()
  const sizeOf = (q: Quoted) => {
    const p0 = done.get(q.pool.token0)?.price
    const p1 = done.get(q.pool.token1)?.price
    return p0 === undefined || p1 === undefined ? 0 : q.human0 * p0 + q.human1 * p1
  }
  for (const [token, c] of done) {
    const poolSizeUsd = c.pool
      ? sizeOf(c.pool)
      : Math.max(0, ...(byToken.get(token) ?? []).map(sizeOf))
    prices.set(token, { priceUsd: c.price, pool: c.pool?.pool.address ?? null, poolSizeUsd })
  }
  return prices
}

type Quoted = {
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

/** Reserves in whole tokens and the spot price (token1 per token0); undefined if unusable. */
function quote(pool: PricingPool, decimals: ReadonlyMap<Address, number>): Quoted | undefined {
  const d0 = decimals.get(pool.token0)
  const d1 = decimals.get(pool.token1)
  if (d0 === undefined || d1 === undefined || pool.token0 === pool.token1) return undefined
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
