import { createMaxHeap, type MaxHeap } from '../utils/createMaxHeap.ts'
import type { Node } from './routeNode.ts'
import type { PoolRecord, TokenRecord } from './routeRecords.ts'

/**
 * How far the re-pricing of a subtree in place (`holds`) keeps from its bounds, relative:
 * far above the rounding of the few multiplications along a route, so that a bound met with
 * this margin is met by the values computed exactly as a visit would compute them.
 */
export const MARGIN = 1e-9

/** A token below a hub, filed by a value in the hub's units; current while `stamp` is. */
type Filed = { value: number; token: TokenRecord; stamp: number }
/**
 * A pool crossing a hub's edge (kept in the pool's record too, so that filing it again needs
 * no lookup in the hub). Its entries in the hub's groups are current while they carry its
 * `stamp`; once it no longer crosses, the stamp moves on and it is dropped.
 */
export type Crossing = {
  hub: Hub
  pool: PoolRecord
  /** The pool's token in the subtree. */
  inner: TokenRecord
  stamp: number
  /** Whether it is in the hub's `anchored`. */
  anchored: boolean
}
/** A crossing pool filed by where it may start to matter; current while `stamp` is. */
type Keyed = { at: number; crossing: Crossing; stamp: number }
/**
 * A hub's crossing pools whose outside token moves with one node's USD price (`node`; null:
 * with none, fixed in USD until it is filed again). Each heap holds the point at which a
 * comparison through the pool may flip, as a bound on the ratio of the hub's price to that
 * node's (`rises`, `falls`) or on the hub's or the outside hub's width (`into`, `toHub`).
 */
type Group = {
  node: Node | null
  /** An offer out of the subtree may beat the outside token's route once the ratio rises to `at`. */
  rises: MaxHeap<Keyed>
  /** An offer into the subtree may beat its token's route once the ratio falls to `at`. */
  falls: MaxHeap<Keyed>
  /** An offer into the hub itself, in the outside node's units: against the hub's width. */
  into: MaxHeap<Keyed>
  /** An offer to the outside hub itself, in the hub's units: against that hub's width. */
  toHub: MaxHeap<Keyed>
}
/**
 * What a token with a large subtree (a hub: WETH on most chains) keeps so that a change of its
 * own pool re-prices the subtree without visiting it (`holds`). Values below the hub are in
 * the hub's units (a liquidity or price divided by the hub's USD price): a change of the hub's
 * price scales everything below it alike and leaves them as they are.
 */
export type Hub = {
  node: Node
  /** Pools with one token in the subtree (the hub included) and the other not. */
  crossing: Set<Crossing>
  /** The crossing pools whose other token is an anchor (re-sized when the hub's price moves). */
  anchored: Set<Crossing>
  /** The crossing pools by the node their outside token moves with (`key`). */
  groups: Map<TokenRecord | null, Group>
  /** The hub's USD price when the last call ended. */
  price: number
  /** The subtree's tree pools by liquidity, least first. */
  thinnest: MaxHeap<Filed>
  /** The hub's children's pools by liquidity, most first. */
  deepest: MaxHeap<Filed>
  /** The subtree's prices, highest and lowest first. */
  dearest: MaxHeap<Filed>
  cheapest: MaxHeap<Filed>
  /** Entries pushed since it was built or compacted, against how many it kept then. */
  pushes: number
  filed: number
}

/**
 * The hubs of a `createPriceRoutes` tree: built, filed, checked (`holds`, `popWhile`) and
 * compacted here. The tree, pools and quotes belong to `createPriceRoutes`; they are only
 * read here (the hub fields of the records are written here).
 */
export function createHubs({
  minLiquidityUsd,
  hubSize,
  fill,
  routesThrough,
}: {
  minLiquidityUsd: number
  hubSize: number
  fill: (node: Node) => Node
  routesThrough: (token: TokenRecord, via: TokenRecord) => boolean
}) {
  /** In the order they were built (a token's `hub` points at its own). */
  const hubs = new Map<TokenRecord, Hub>()
  /** Stamps of a token's entries in the hubs above it (its `filedAt`). */
  let filing = 0

  /** Whether `token` is priced through `node` (or is its token). */
  const below = (token: TokenRecord, node: Node) => {
    for (let n = token.node ?? null; n !== null; n = n.up) if (n === node) return true
    return false
  }

  /** The current top of a hub's heap (stale entries dropped). */
  const topOf = (heap: MaxHeap<Filed>) => {
    for (let top = heap.peek(); top; top = heap.peek()) {
      if (top.token.filedAt === top.stamp) return top.value
      heap.pop()
    }
    return undefined
  }
  /** Files `node` (of `token`, below `hub`) in the hub's units. */
  const file = (hub: Hub, token: TokenRecord, node: Node) => {
    const unit = fill(hub.node).priceUsd
    fill(node)
    let at = token.filedAt
    if (at === undefined) {
      at = ++filing
      token.filedAt = at
    }
    hub.thinnest.push({ value: node.hop / unit, token, stamp: at })
    hub.dearest.push({ value: node.priceUsd / unit, token, stamp: at })
    hub.cheapest.push({ value: node.priceUsd / unit, token, stamp: at })
    hub.pushes += 3
    if (node.up === hub.node) {
      hub.deepest.push({ value: node.hop / unit, token, stamp: at })
      hub.pushes++
    }
  }
  /** A hub for `token` from a visit of its subtree. */
  const buildHub = (token: TokenRecord, node: Node) => {
    const least = (a: Filed, b: Filed) => a.value < b.value
    const most = (a: Filed, b: Filed) => a.value > b.value
    const hub: Hub = {
      node,
      crossing: new Set(),
      anchored: new Set(),
      groups: new Map(),
      price: fill(node).priceUsd,
      thinnest: createMaxHeap(least),
      deepest: createMaxHeap(most),
      dearest: createMaxHeap(most),
      cheapest: createMaxHeap(least),
      pushes: 0,
      filed: 0,
    }
    const inside = new Set<TokenRecord>([token])
    const stack = [token]
    while (stack.length > 0) {
      const t = stack.pop() as TokenRecord
      for (const child of t.children ?? []) {
        const childNode = child.node
        if (!childNode) continue
        inside.add(child)
        file(hub, child, childNode)
        stack.push(child)
      }
    }
    hubs.set(token, hub)
    token.hub = hub
    for (const t of inside) {
      for (const p of t.pools) {
        const other = p.pool && (p.token0 === t ? p.token1 : p.token0)
        if (other && !inside.has(other)) key(hub, p)
      }
    }
    hub.filed = hub.pushes
    return hub
  }
  let keying = 0
  /**
   * Files a pool with `hub`: whether it crosses the subtree's edge, and if so where each
   * comparison through it may flip. With the subtree's widths not capped by the hub's (what
   * `holds` asks before the hub moves without a visit), everything inside moves with the
   * hub's price, and the outside token with the price of its nearest hub (or not at all), so
   * each comparison flips only once the ratio of those two prices crosses a point: offered
   * out, the lesser of the inside token's width and the pool's liquidity on its side against
   * the outside token's width; offered in, the outside token's (or its hub's pool liquidity,
   * a bound) against the inside token's width. Bounds are kept `MARGIN` short, so rounding
   * only ever adds a check. Filed again whenever a side moves otherwise (`updateHubs`).
   */
  function key(hub: Hub, p: PoolRecord) {
    const pool = p.pool
    const in0 = pool !== undefined && below(p.token0, hub.node)
    const in1 = pool !== undefined && below(p.token1, hub.node)
    let crossing: Crossing | undefined
    for (const c of p.crossings) if (c.hub === hub) crossing = c
    if (!pool || in0 === in1) {
      // Entries are only ever filed for a crossing pool (and `anchored` is among those): one
      // that was not crossing has none to make stale.
      if (crossing) {
        hub.crossing.delete(crossing)
        p.crossings.splice(p.crossings.indexOf(crossing), 1)
        crossing.stamp = ++keying
        if (crossing.anchored) hub.anchored.delete(crossing)
      }
      return
    }
    const stamp = ++keying
    const inner = in0 ? p.token0 : p.token1
    const outer = in0 ? p.token1 : p.token0
    if (crossing) {
      crossing.stamp = stamp
      crossing.inner = inner
    } else {
      crossing = { hub, pool: p, inner, stamp, anchored: false }
      hub.crossing.add(crossing)
      p.crossings.push(crossing)
    }
    if (outer.anchor !== crossing.anchored) {
      crossing.anchored = outer.anchor
      if (outer.anchor) hub.anchored.add(crossing)
      else hub.anchored.delete(crossing)
    }
    const q = p.quote
    const innerNode = inner.node
    // The hub's own route is re-priced with it, not offered.
    if (!q || !innerNode || innerNode.pool === p) return
    hub.pushes += 2
    fill(innerNode)
    const hubPrice = fill(hub.node).priceUsd
    const h = 2 * (in0 ? q.depth0 : q.depth1) * innerNode.priceUsd
    const outerNode = outer.node
    if (!outerNode) {
      // Offered to an unpriced token once deep enough: in USD, fixed.
      const at = (hubPrice * minLiquidityUsd * (1 - MARGIN)) / h
      group(hub, null, null).rises.push({ at, crossing, stamp })
      return
    }
    let k: TokenRecord | null = null
    let kNode: Node | null = null
    for (
      let t: TokenRecord | null = outer, n: Node | null = outerNode;
      t && n;
      t = n.parent, n = n.up
    )
      if (t.hub?.node === n) {
        k = t
        kNode = n
        break
      }
    const g = group(hub, k, kNode)
    fill(outerNode)
    const ratio = hubPrice / (kNode ? fill(kNode).priceUsd : 1)
    const isHub = innerNode === hub.node
    const offered = isHub ? h : Math.min(innerNode.width, h)
    if (!routesThrough(inner, outer)) {
      if (outer === k) g.toHub.push({ at: offered / hubPrice, crossing, stamp })
      else
        g.rises.push({
          at: (ratio * outerNode.width * (1 - MARGIN)) / offered,
          crossing,
          stamp,
        })
    }
    const hOut = 2 * (in0 ? q.depth1 : q.depth0) * outerNode.priceUsd
    const back = outer === k ? hOut : Math.min(outerNode.width, hOut)
    if (isHub) g.into.push({ at: back / (kNode ? kNode.priceUsd : 1), crossing, stamp })
    else g.falls.push({ at: (ratio * back) / (innerNode.width * (1 - MARGIN)), crossing, stamp })
  }
  function group(hub: Hub, k: TokenRecord | null, node: Node | null): Group {
    const current = hub.groups.get(k)
    if (current && current.node === node) return current
    const least = (a: Keyed, b: Keyed) => a.at < b.at
    const most = (a: Keyed, b: Keyed) => a.at > b.at
    const fresh: Group = {
      node,
      rises: createMaxHeap(least),
      falls: createMaxHeap(most),
      into: createMaxHeap(most),
      toHub: createMaxHeap(most),
    }
    hub.groups.set(k, fresh)
    return fresh
  }
  /**
   * Whether re-pricing hub `node` (its old USD price and width `before`, its new ones now)
   * leaves every comparison inside its subtree as it was, so that only the crossing pools
   * need checking. It does when, before and after:
   * - no route below is capped by the hub's width: each is as wide as its thinnest pool below
   *   the hub (the deepest child's pool is narrower than the hub's route), so every width,
   *   liquidity and price below scales by the hub's move and their order stays;
   * - every tree pool below stays at or above the minimum liquidity, and every price finite.
   * The bounds hold with `MARGIN` to spare, so rounding cannot tip them.
   */
  const holds = (hub: Hub, node: Node, before: { priceUsd: number; width: number }) => {
    fill(node)
    const deepest = topOf(hub.deepest)
    if (
      deepest !== undefined &&
      !(
        deepest * before.priceUsd < before.width * (1 - MARGIN) &&
        deepest * node.priceUsd < node.width * (1 - MARGIN)
      )
    )
      return false
    const thinnest = topOf(hub.thinnest)
    if (thinnest !== undefined && !(thinnest * node.priceUsd >= minLiquidityUsd * (1 + MARGIN)))
      return false
    const dearest = topOf(hub.dearest)
    const cheapest = topOf(hub.cheapest)
    if (dearest !== undefined && !(dearest * node.priceUsd < 1e300)) return false
    if (cheapest !== undefined && !(cheapest * node.priceUsd > 1e-300)) return false
    return true
  }

  /** Drops a hub's stale entries (amortised over the pushes that made them). */
  function compact(hub: Hub) {
    const filedNow = (e: Filed) => e.token.filedAt === e.stamp
    const keyedNow = (e: Keyed) => e.crossing.stamp === e.stamp
    for (const heap of [hub.thinnest, hub.deepest, hub.dearest, hub.cheapest]) heap.retain(filedNow)
    hub.filed = hub.thinnest.size + hub.deepest.size + hub.dearest.size + hub.cheapest.size
    for (const [k, g] of hub.groups) {
      if (k !== null && k.node !== g.node) {
        hub.groups.delete(k)
        continue
      }
      for (const heap of [g.rises, g.falls, g.into, g.toHub]) {
        heap.retain(keyedNow)
        hub.filed += heap.size
      }
    }
    hub.pushes = hub.filed
  }

  /** Moves a hub's entries that may flip (`flips(at)`) from `heap` to `due`; drops stale ones. */
  function popWhile(heap: MaxHeap<Keyed>, flips: (at: number) => boolean, due: Set<Crossing>) {
    for (let top = heap.peek(); top; top = heap.peek()) {
      if (top.crossing.stamp === top.stamp) {
        if (!flips(top.at)) return
        due.add(top.crossing)
      }
      heap.pop()
    }
  }

  /**
   * Brings the hubs up to the tree `settle` left: hubs whose token was taken out or
   * re-routed, or whose units moved under them, are dropped; large visits and tokens given
   * many children become hubs; the tokens that moved (re-routed, or re-priced by a visit) are
   * filed again in the hubs above them, and every pool whose sides moved otherwise than with
   * a hub's price, or that was checked, is filed again (`key`).
   */
  function updateHubs({
    rerouted,
    moved,
    changed,
    stale,
    fresh,
    checked,
  }: {
    rerouted: ReadonlySet<TokenRecord>
    moved: readonly TokenRecord[]
    changed: readonly PoolRecord[]
    stale: ReadonlySet<TokenRecord>
    fresh: ReadonlySet<TokenRecord>
    checked: ReadonlyMap<Hub, ReadonlySet<Crossing>>
  }) {
    for (const [token, hub] of hubs)
      if (token.node !== hub.node || stale.has(token)) {
        hubs.delete(token)
        token.hub = undefined
        // Its crossings leave the pools' records with it (memory stays bounded by the hubs).
        for (const c of hub.crossing) c.pool.crossings.splice(c.pool.crossings.indexOf(c), 1)
      }
    for (const token of new Set([...rerouted, ...moved])) {
      token.filedAt = ++filing
      const node = token.node
      if (!node || hubs.size === 0) continue
      // Up the parents' nodes (`up` is current for a node in the tree).
      for (let a = node.parent, n = node.up; a !== null && n !== null; a = n.parent, n = n.up) {
        const hub = a.hub
        if (hub) file(hub, token, node)
      }
    }
    // A token given many children at once (the first settle: WETH) is a hub from the start.
    const candidates = new Set(fresh)
    const given = new Map<TokenRecord, number>()
    for (const token of rerouted) {
      const parent = token.node?.parent
      if (parent && !parent.anchor) given.set(parent, (given.get(parent) ?? 0) + 1)
    }
    for (const [parent, count] of given) if (count >= hubSize) candidates.add(parent)
    const built: Hub[] = []
    for (const token of candidates) {
      const node = token.node
      if (node && node.parent !== null && !token.hub) built.push(buildHub(token, node))
    }
    for (const hub of hubs.values()) if (hub.pushes > 2 * hub.filed + 1024) compact(hub)
    if (hubs.size === 0) return
    const again = new Set<PoolRecord>(changed)
    for (const token of rerouted) for (const p of token.pools) again.add(p)
    for (const token of moved) for (const p of token.pools) again.add(p)
    for (const p of again) for (const hub of hubs.values()) key(hub, p)
    for (const [hub, due] of checked) {
      if ([...hubs.values()].includes(hub)) for (const c of due) key(hub, c.pool)
    }
    // Pools into a new hub's subtree move with its price now: filed again by the hubs they cross.
    for (const hub of built) {
      for (const c of hub.crossing)
        for (const other of hubs.values())
          if (other !== hub && c.pool.crossings.some((o) => o.hub === other)) key(other, c.pool)
    }
    for (const hub of hubs.values()) hub.price = fill(hub.node).priceUsd
  }

  return { hubs, holds, popWhile, updateHubs }
}
