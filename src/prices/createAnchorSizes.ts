import { createMaxHeap } from '../utils/createMaxHeap.ts'
import type { Quoted } from './quote.ts'
import type { Node } from './routeNode.ts'
import type { PoolRecord, TokenRecord } from './routeRecords.ts'

/** An anchor's pool filed by size (an anchor's `bySize`). */
export type SizedPool = { size: number; pool: PoolRecord; stamp: number }

/** The USD size of each anchor's deepest pool (an anchor's `poolSize`), kept as pools change. */
export function createAnchorSizes({ fill }: { fill: (node: Node) => Node }) {
  /**
   * Each anchor's pools by size (`bySize`), so its deepest is found without visiting them all:
   * an entry is current while its pool's stamp is the one it was pushed with (`resize` pushes
   * a new entry whenever a pool's size may have moved; older ones are dropped when they
   * surface).
   */
  let stamp = 0

  const priceOf = (token: TokenRecord) => {
    const node = token.node
    return node && fill(node).priceUsd
  }
  const sizeOf = (p: PoolRecord, q: Quoted) => {
    const p0 = priceOf(p.side0)
    const p1 = priceOf(p.side1)
    return p0 === undefined || p1 === undefined ? 0 : q.human0 * p0 + q.human1 * p1
  }
  const bySize = () => createMaxHeap<SizedPool>((a, b) => a.size > b.size)
  /** A pool's size may have moved (its reserves, or a side's price): re-file it by anchor. */
  const resize = (p: PoolRecord) => {
    p.stamp = ++stamp
    if (!p.pool) return
    const q = p.quote
    for (const anchor of [p.token0, p.token1]) {
      if (!anchor.anchor) continue
      const heap = anchor.bySize ?? bySize()
      anchor.bySize = heap
      if (q) heap.push({ size: sizeOf(p, q), pool: p, stamp })
      // Mostly stale entries: rebuilt from the current ones (amortised over the pushes).
      const live = anchor.pools.size
      if (heap.size > 2 * live + 64) {
        const fresh = bySize()
        for (const other of anchor.pools) {
          const quoted = other.quote
          const current = other.stamp
          if (quoted && current !== undefined)
            fresh.push({ size: sizeOf(other, quoted), pool: other, stamp: current })
        }
        anchor.bySize = fresh
      }
    }
  }
  /** The USD size of an anchor's deepest pool. */
  const anchorSize = (token: TokenRecord) => {
    const heap = token.bySize
    for (let top = heap?.peek(); heap && top; top = heap.peek()) {
      if (top.pool.stamp === top.stamp) return top.size
      heap.pop()
    }
    return 0
  }

  return { resize, anchorSize }
}
