import type { Address } from '../evm/types.ts'
import { createMaxHeap, type MaxHeap } from '../utils/createMaxHeap.ts'
import type { PricingPool } from './createPriceRoutes.ts'
import type { Quoted } from './quote.ts'
import type { Node } from './routeNode.ts'

/** An anchor's pool filed by size (`anchorPools`). */
type SizedPool = { size: number; pool: Address; stamp: number }

/** The USD size of each anchor's deepest pool (an anchor's `poolSize`), kept as pools change. */
export function createAnchorSizes({
  anchorSet,
  pools,
  quotes,
  byToken,
  routes,
  fill,
}: {
  anchorSet: ReadonlySet<Address>
  pools: ReadonlyMap<Address, PricingPool>
  quotes: ReadonlyMap<Address, Quoted>
  byToken: ReadonlyMap<Address, ReadonlySet<Address>>
  routes: ReadonlyMap<Address, Node>
  fill: (node: Node) => Node
}) {
  /**
   * Each anchor's pools by size, so its deepest is found without visiting them all: an entry
   * is current while its pool's stamp is the one it was pushed with (`resize` pushes a new
   * entry whenever a pool's size may have moved; older ones are dropped when they surface).
   */
  const anchorPools = new Map<Address, MaxHeap<SizedPool>>()
  const stamps = new Map<Address, number>()
  let stamp = 0

  const priceOf = (token: Address) => {
    const node = routes.get(token)
    return node && fill(node).priceUsd
  }
  const sizeOf = (q: Quoted) => {
    const p0 = priceOf(q.pool.token0)
    const p1 = priceOf(q.pool.token1)
    return p0 === undefined || p1 === undefined ? 0 : q.human0 * p0 + q.human1 * p1
  }
  const bySize = () => createMaxHeap<SizedPool>((a, b) => a.size > b.size)
  /** A pool's size may have moved (its reserves, or a side's price): re-file it by anchor. */
  const resize = (address: Address) => {
    const pool = pools.get(address)
    stamps.set(address, ++stamp)
    if (!pool) return
    const q = quotes.get(address)
    for (const anchor of [pool.token0, pool.token1]) {
      if (!anchorSet.has(anchor)) continue
      const heap = anchorPools.get(anchor) ?? bySize()
      anchorPools.set(anchor, heap)
      if (q) heap.push({ size: sizeOf(q), pool: address, stamp })
      // Mostly stale entries: rebuilt from the current ones (amortised over the pushes).
      const live = byToken.get(anchor)?.size ?? 0
      if (heap.size > 2 * live + 64) {
        const fresh = bySize()
        for (const other of byToken.get(anchor) ?? []) {
          const quoted = quotes.get(other)
          const current = stamps.get(other)
          if (quoted && current !== undefined)
            fresh.push({ size: sizeOf(quoted), pool: other, stamp: current })
        }
        anchorPools.set(anchor, fresh)
      }
    }
  }
  /** The USD size of an anchor's deepest pool. */
  const anchorSize = (token: Address) => {
    const heap = anchorPools.get(token)
    for (let top = heap?.peek(); heap && top; top = heap.peek()) {
      if (stamps.get(top.pool) === top.stamp) return top.size
      heap.pop()
    }
    return 0
  }

  return { resize, anchorSize }
}
