import type { Quoted } from './quote.ts'
import type { PoolRecord, TokenRecord } from './routeRecords.ts'

/**
 * A route as kept: relative to its parent's, so that re-pricing a token re-prices everything
 * routed through it without a visit. Its USD price, width and last pool's liquidity (`hop`)
 * are derived from the parent's (`fill`), with the arithmetic a search uses to offer them.
 */
export type Node = {
  parent: TokenRecord | null
  /** The parent's node, current while this one is in the tree (null for an anchor). */
  up: Node | null
  pool: PoolRecord | null
  /** The price in the parent's units (an anchor: 1). */
  rel: number
  /** Twice the pool's depth on the parent's side, in the parent's units (hop = liq × its price). */
  liq: number
  /** Size of the pool in the parent's units (an anchor: its deepest pool, in USD). */
  poolSize: number
  /** The derived values, current while `at` is the routes' `version`. */
  at: number
  priceUsd: number
  width: number
  hop: number
}
/** A route offered to `token`; stale once `from` (its parent's node) is no longer current. */
export type Candidate = {
  token: TokenRecord
  price: number
  /** `price` in the parent's units. */
  rel: number
  liq: number
  pool: PoolRecord | null
  /** The pool's quote it was offered with: stale once the pool is quoted again. */
  quote: Quoted | null
  width: number
  hop: number
  from: Node | null
}

/** Whether route `a` beats route `b`: wider, or as wide with a deeper last pool. */
export const better = (a: { width: number; hop: number }, b: { width: number; hop: number }) =>
  a.width > b.width || (a.width === b.width && a.hop > b.hop)
