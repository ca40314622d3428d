import type { Address } from '../evm/types.ts'
import type { MaxHeap } from '../utils/createMaxHeap.ts'
import type { SizedPool } from './createAnchorSizes.ts'
import type { Crossing, Hub } from './createHubs.ts'
import type { PricedToken, PricingPool } from './createPriceRoutes.ts'
import type { Quoted } from './quote.ts'
import type { Node } from './routeNode.ts'

/**
 * Everything `createPriceRoutes` keeps about one token, in one place: with 20,000 pools the
 * maps by address are large enough that each lookup is a cache miss, so a token is looked up
 * once where it enters (a pool's side, a caller's address) and reached through pointers from
 * there (a pool's sides, a node's parent). Kept for every token ever seen, priced or not.
 */
export type TokenRecord = {
  address: Address
  anchor: boolean
  decimals: number | undefined
  /** Every pool (usable or not) holding the token, in the order they were linked. */
  pools: Set<PoolRecord>
  /** How many of `pools` join the token to an anchor (0: it has no anchor pool to re-size). */
  anchorPools: number
  /** Its route, while it has one. */
  node: Node | undefined
  /** The tokens routed through it (absent until it has one, dropped when it is taken out). */
  children: Set<TokenRecord> | undefined
  /** What `settle` last reported for it (what the next call's changes are relative to). */
  reported: PricedToken | undefined
  /** Its hub, while it is one (`createHubs`). */
  hub: Hub | undefined
  /** Its entries in the hubs above it are current while they carry this stamp (`createHubs`). */
  filedAt: number | undefined
  /** An anchor's pools by size (`createAnchorSizes`). */
  bySize: MaxHeap<SizedPool> | undefined
}

/**
 * Everything `createPriceRoutes` keeps about one pool (see `TokenRecord`). Kept once seen, also
 * after the pool is removed (`pool` undefined), so that a pool set again finds its stamps.
 */
export type PoolRecord = {
  address: Address
  /** Its current state; undefined once removed. */
  pool: PricingPool | undefined
  /** The tokens of `pool` (of the last one while it is removed). */
  token0: TokenRecord
  token1: TokenRecord
  quote: Quoted | undefined
  /** The tokens of `quote`'s pool: until a changed pool is quoted again, its old quote stands. */
  side0: TokenRecord
  side1: TokenRecord
  /** The token whose route's last pool is this one (at most one). */
  user: TokenRecord | undefined
  /** Its entries by size are current while they carry this stamp (`createAnchorSizes`). */
  stamp: number | undefined
  /** Its place in each hub whose subtree's edge it crosses (`createHubs`). */
  crossings: Crossing[]
}

/** A token first seen: in no pool, unpriced. */
export const tokenRecord = (address: Address): TokenRecord => ({
  address,
  anchor: false,
  decimals: undefined,
  pools: new Set(),
  anchorPools: 0,
  node: undefined,
  children: undefined,
  reported: undefined,
  hub: undefined,
  filedAt: undefined,
  bySize: undefined,
})

/** A pool first seen, between `token0` and `token1`: not yet set, nor quoted. */
export const poolRecord = ({
  address,
  token0,
  token1,
}: {
  address: Address
  token0: TokenRecord
  token1: TokenRecord
}): PoolRecord => ({
  address,
  pool: undefined,
  token0,
  token1,
  quote: undefined,
  side0: token0,
  side1: token1,
  user: undefined,
  stamp: undefined,
  crossings: [],
})
