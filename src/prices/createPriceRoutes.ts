import type { PoolType } from '../evm/poolTypes.ts'
import type { Address } from '../evm/types.ts'
import { createMaxHeap } from '../utils/createMaxHeap.ts'
import { createAnchorSizes } from './createAnchorSizes.ts'
import { type Crossing, createHubs, type Hub, MARGIN } from './createHubs.ts'
import { type Quoted, quote, sizeInParent } from './quote.ts'
import { better, type Candidate, type Node } from './routeNode.ts'
import { type PoolRecord, poolRecord, type TokenRecord, tokenRecord } from './routeRecords.ts'

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

/**
 * A token's price as stored: in its parent's units (the other token of its pool; null for a
 * USD anchor, whose `price` is 1 and `poolSize` is in USD). `priceUsd` is the parent's USD
 * price times `price` (`resolvePrices`), so a move of WETH's price changes WETH's row, not
 * the rows of every token priced through WETH.
 */
export type RelativePrice = {
  parent: Address | null
  price: number
  pool: Address | null
  /** Size of the pool in the parent's units (an anchor: its deepest pool, in USD). */
  poolSize: number
}

/**
 * A token's route: its price, how liquid the route is (its thinnest pool, in USD), how liquid
 * its last pool is (of two routes as liquid as each other, the deeper last pool wins), and
 * the token it is priced through (null for an anchor).
 */
export type Route = TokenPrice & { width: number; hop: number; parent: Address | null }

/** A priced token: its USD price and its stored (relative) form. */
export type PricedToken = TokenPrice & RelativePrice

/**
 * Every token's price through its most liquid route to a USD anchor, kept up to date as pools
 * change. A route is as liquid as its thinnest pool, and a pool's liquidity is twice the USD
 * value of its already-priced side (what someone had to deposit: a pool cannot make itself
 * look deep by its own price); pools below `minLiquidityUsd` never price anything.
 *
 * The routes form a tree rooted at the anchors. `settle()` recomputes only what the pools
 * changed since the last call can have moved: the tokens routed through a changed pool (and
 * the tokens routed through those), and tokens a changed pool may now offer a better route
 * to; everything else keeps its route. Work per call grows with what changed, not with the
 * number of pools (a widest-path search, restarted from the boundary of the affected part).
 * A token whose route's pool changed but still prices it from the same parent keeps its
 * subtree, re-priced in place: routes are kept relative to their parent's (a price in the
 * parent's units, a pool's depth on the parent's side), so its subtree's USD prices, widths
 * and liquidities follow without being written. Then only the neighbours of the re-priced
 * tokens are checked for better routes; for a hub (a token with a large subtree, WETH on most
 * chains) not even those inside it: a move of the hub's price scales everything below it
 * alike, which keeps every comparison inside as it was unless a route below is capped by the
 * hub's own width or a pool below falls under the minimum (`holds`, checked against bounds
 * kept in the hub's units). A pool leaving the subtree compares a side that moves with the
 * hub's price with one that moves with another node's (or not at all): it is filed by the
 * ratio of the two prices at which its comparison may flip (`key`), and checked only once
 * that ratio is crossed. A swap in WETH/USDC then costs what its own pool and the few pools
 * near their point cost, not WETH's subtree nor the pools around it.
 * Prices and route widths equal a search from scratch where the pools agree on prices; among
 * equally wide routes the deeper last pool wins, and which of two such routes a token keeps
 * may depend on the order the pools changed in (no route may run through its own token).
 */
export type PriceRoutes = {
  /** Adds or replaces a pool; null removes it. */
  setPool(address: Address, pool: PricingPool | null): void
  /** A token's decimals became known (pools through it may become usable). */
  setDecimals(token: Address, decimals: number): void
  /** Whether `setDecimals` gave this token's decimals. */
  hasDecimals(token: Address): boolean
  /**
   * Applies the changes since the last call. Returns every token whose relative price,
   * parent, pool or pool size (in the parent's units) moved (undefined: no longer priced) and
   * how many heap steps it took. A token whose USD price moved only because an ancestor's did
   * is not among them.
   */
  settle(): { changed: Map<Address, PricedToken | undefined>; steps: number }
  route(token: Address): Route | undefined
  /** Every priced token. */
  prices(): ReadonlyMap<Address, PricedToken>
}

export function createPriceRoutes({
  anchors,
  minLiquidityUsd,
  hubSize = 64,
}: {
  anchors: readonly Address[]
  minLiquidityUsd: number
  /**
   * From how many tokens a subtree re-priced by a visit is kept as a hub (re-priced without
   * one next time). Default 64; tests set it low so that every subtree takes that path.
   */
  hubSize?: number
}): PriceRoutes {
  /**
   * Every token and pool ever seen, by address: looked up once where an address comes in,
   * then reached through the records' pointers (see `TokenRecord`). Records of removed pools
   * and of tokens no longer in any pool are kept: memory is bounded by what was ever seen.
   */
  const tokens = new Map<Address, TokenRecord>()
  const pools = new Map<Address, PoolRecord>()
  const token = (address: Address): TokenRecord => {
    let t = tokens.get(address)
    if (!t) {
      t = tokenRecord(address)
      tokens.set(address, t)
    }
    return t
  }
  /** The anchors, in the order given (duplicates dropped). */
  const anchorTokens = [...new Set(anchors)].map((address) => {
    const t = token(address)
    t.anchor = true
    return t
  })
  /** The priced tokens, in the order they were priced (what `prices()` lists). */
  const routed = new Set<TokenRecord>()
  const changedPools = new Set<PoolRecord>()
  /** Anchors among the tokens of the changed pools (old and new sides): they are re-sized. */
  const changedAnchors = new Set<TokenRecord>()
  /** Anchors are priced from the start; on the first settle they are seeded. */
  let seeded = false
  /** Bumped whenever a node's `rel` or `liq` changes in place: derived values are then redone. */
  let version = 0

  const link = (t: TokenRecord, p: PoolRecord, other: TokenRecord) => {
    const size = t.pools.size
    t.pools.add(p)
    if (t.pools.size !== size && other.anchor) t.anchorPools++
  }
  const unlink = (t: TokenRecord, p: PoolRecord, other: TokenRecord) => {
    if (t.pools.delete(p) && other.anchor) t.anchorPools = Math.max(0, t.anchorPools - 1)
  }

  /**
   * A node with its derived values current: price = the parent's × rel, hop = liq × the
   * parent's price, width = the lesser of the parent's width and hop (an anchor: 1, ∞, ∞).
   */
  const fill = (node: Node): Node => {
    if (node.at === version) return node
    const up = node.up
    if (up === null) {
      node.priceUsd = node.rel
      node.width = Number.POSITIVE_INFINITY
      node.hop = Number.POSITIVE_INFINITY
    } else {
      fill(up)
      node.priceUsd = up.priceUsd * node.rel
      node.hop = node.liq * up.priceUsd
      node.width = Math.min(up.width, node.hop)
    }
    node.at = version
    return node
  }

  /** The candidate route through pool `p` from priced `fromToken`, if the pool is deep enough. */
  function via(from: Node, fromToken: TokenRecord, p: PoolRecord): Candidate | undefined {
    const q = p.quote as Quoted
    fill(from)
    const isToken0 = p.side0 === fromToken
    const to = isToken0 ? p.side1 : p.side0
    const liq = 2 * (isToken0 ? q.depth0 : q.depth1)
    const liquidity = liq * from.priceUsd
    if (!(liquidity >= minLiquidityUsd)) return undefined
    // q.ratio = token1 per token0. The USD price is the parent's times the relative one, in
    // that order, as resolvePrices computes it from the stored rows.
    const rel = isToken0 ? 1 / q.ratio : q.ratio
    const price = from.priceUsd * rel
    if (!Number.isFinite(price) || price <= 0) return undefined
    return {
      token: to,
      price,
      rel,
      liq,
      pool: p,
      quote: q,
      width: Math.min(from.width, liquidity),
      hop: liquidity,
      from,
    }
  }

  /**
   * Whether `token`'s route passes through `via`. A route back through a token's own
   * descendants is never wider than its own, but can tie in width with a deeper last pool:
   * taking it would make a cycle.
   */
  const routesThrough = (token: TokenRecord, via: TokenRecord) => {
    if (token === via) return true
    // Up the parents' nodes (`up` is current for a node in the tree).
    for (let n = token.node; n; n = n.up ?? undefined) if (n.parent === via) return true
    return false
  }
  const { resize, anchorSize } = createAnchorSizes({ fill })
  const { hubs, holds, popWhile, updateHubs } = createHubs({
    minLiquidityUsd,
    hubSize,
    fill,
    routesThrough,
  })

  /**
   * A token's route if it is priced: an anchor is $1 only once some usable pool holds it, so
   * prices do not depend on whether pools were ever seen (a restart, a chain without a DEX).
   */
  const listed = (t: TokenRecord): Node | undefined => {
    const node = t.node
    if (!node || node.parent !== null) return node && fill(node)
    for (const p of t.pools) if (p.quote) return fill(node)
    return undefined
  }

  /** A route's pool in USD: its size in parent units at the parent's price (an anchor's: USD). */
  const sizeUsd = (node: Node) =>
    node.up === null ? node.poolSize : node.poolSize * fill(node.up).priceUsd
  const toPrice = (node: Node): PricedToken => ({
    priceUsd: node.priceUsd,
    pool: node.pool ? node.pool.address : null,
    poolSizeUsd: sizeUsd(node),
    parent: node.parent ? node.parent.address : null,
    price: node.rel,
    poolSize: node.poolSize,
  })

  return {
    setPool(address, pool) {
      let p = pools.get(address)
      if (!p) {
        // Never seen, and removed: nothing refers to it.
        if (!pool) return
        p = poolRecord({ address, token0: token(pool.token0), token1: token(pool.token1) })
        pools.set(address, p)
      }
      const old = p.pool
      // A new state of a known pool (its tokens the same, as a swap's) keeps its links: taking
      // a pool out of WETH's set of thousands and putting it back was most of a swap's cost.
      const same = old && pool && old.token0 === pool.token0 && old.token1 === pool.token1
      if (old && !same) {
        unlink(p.token0, p, p.token1)
        unlink(p.token1, p, p.token0)
        if (p.token0.anchor) changedAnchors.add(p.token0)
        if (p.token1.anchor) changedAnchors.add(p.token1)
      }
      if (pool) {
        if (!same) {
          if (p.token0.address !== pool.token0) p.token0 = token(pool.token0)
          if (p.token1.address !== pool.token1) p.token1 = token(pool.token1)
          link(p.token0, p, p.token1)
          link(p.token1, p, p.token0)
        }
        if (p.token0.anchor) changedAnchors.add(p.token0)
        if (p.token1.anchor) changedAnchors.add(p.token1)
        p.pool = pool
      } else p.pool = undefined
      changedPools.add(p)
    },
    setDecimals(address, d) {
      const t = token(address)
      if (t.decimals === d) return
      t.decimals = d
      for (const p of t.pools) {
        changedPools.add(p)
        if (!p.pool) continue
        if (p.token0.anchor) changedAnchors.add(p.token0)
        if (p.token1.anchor) changedAnchors.add(p.token1)
      }
    },
    hasDecimals: (address) => tokens.get(address)?.decimals !== undefined,
    settle() {
      const dirty = new Set<TokenRecord>()
      const heap = createMaxHeap<Candidate>(better)
      let steps = 0
      /** Tokens taken out of the tree or put in (their pools may now cross a hub's edge). */
      const rerouted = new Set<TokenRecord>()
      /**
       * Until every changed pool is in, prices may still move: tokens taken out are searched
       * from their neighbours only then (an offer carries the prices it was made with).
       */
      let deferred: TokenRecord[] | null = []

      /** Takes `token` and every token routed through it out of the tree. */
      const invalidate = (token: TokenRecord) => {
        const stack = [token]
        const removed: TokenRecord[] = []
        while (stack.length > 0) {
          const t = stack.pop() as TokenRecord
          const node = t.node
          if (!node) continue
          t.node = undefined
          routed.delete(t)
          if (node.parent) node.parent.children?.delete(t)
          if (node.pool) node.pool.user = undefined
          dirty.add(t)
          rerouted.add(t)
          removed.push(t)
          for (const c of t.children ?? []) stack.push(c)
          t.children = undefined
        }
        // Restart the search at the boundary: routes from still-priced neighbours.
        if (deferred) deferred.push(...removed)
        else for (const t of removed) seed(t)
      }
      const seed = (token: TokenRecord) => {
        if (token.anchor) {
          heap.push({
            token,
            price: 1,
            rel: 1,
            liq: Number.POSITIVE_INFINITY,
            pool: null,
            quote: null,
            width: Number.POSITIVE_INFINITY,
            hop: Number.POSITIVE_INFINITY,
            from: null,
          })
          return
        }
        for (const p of token.pools) {
          if (!p.quote) continue
          const from = p.side0 === token ? p.side1 : p.side0
          const node = from.node
          const c = node && via(node, from, p)
          if (c) heap.push(c)
        }
      }

      /** Tokens re-priced by a visit (`rescale`), whose pools are checked afterwards. */
      const moved: TokenRecord[] = []
      /** Hubs re-priced without a visit, whose crossing pools are checked afterwards. */
      const hubsMoved: TokenRecord[] = []
      /** Hubs whose values below them were filed in units that moved (dropped at the end). */
      const staleHubs = new Set<TokenRecord>()
      /** Tokens whose visit was large enough to keep them as hubs. */
      const newHubs = new Set<TokenRecord>()
      /**
       * The pool of `token`'s route changed (and is quoted: `p`) but still prices it from the
       * same parent: the token keeps its route with a new price in its parent's units, and the
       * tokens routed through it keep theirs (their prices, liquidities and widths follow,
       * derived). A hub whose subtree `holds` is done: its crossing pools are checked once
       * every change is in. Otherwise the subtree is visited: a descendant whose pool no longer
       * carries the route is taken out, and every pool of the visited tokens is checked
       * afterwards.
       */
      const rescale = (token: TokenRecord, p: PoolRecord): boolean => {
        const node = token.node
        const parent = node?.parent
        const parentNode = parent ? parent.node : undefined
        const c = parent && parentNode ? via(parentNode, parent, p) : undefined
        if (!node || !c || c.token !== token) return false
        fill(node)
        const before = { priceUsd: node.priceUsd, width: node.width }
        node.rel = c.rel
        node.liq = c.liq
        version++
        // Only the token whose pool changed moves in its parent's units; below it, routes
        // keep their pools and relative prices, and move in USD only (not reported).
        dirty.add(token)
        const hub = token.hub
        if (hub && hub.node === node && !staleHubs.has(token) && holds(hub, node, before)) {
          hubsMoved.push(token)
          // The hubs above filed this subtree in their units, which this move changed.
          for (let a = parent ?? null; a; a = a.node?.parent ?? null) if (a.hub) staleHubs.add(a)
          return true
        }
        const stack = [token]
        let visited = 0
        while (stack.length > 0) {
          const t = stack.pop() as TokenRecord
          const tNode = t.node as Node
          moved.push(t)
          visited++
          for (const child of t.children ?? []) {
            const childNode = child.node
            const cp = childNode?.pool
            const childOffer = cp?.quote && via(tNode, t, cp)
            if (childNode && childOffer && childOffer.token === child) {
              childNode.rel = childOffer.rel
              childNode.liq = childOffer.liq
              childNode.at = -1
              stack.push(child)
            } else invalidate(child)
          }
        }
        if (visited >= hubSize) newHubs.add(token)
        return true
      }

      /**
       * The pools of a re-priced token: a better route through it, or a better one to it.
       * A tree edge (the token's own route, or a child's) offers each side what it already
       * has, or a route through its own descendant: nothing to check.
       */
      const recheck = (token: TokenRecord, p: PoolRecord) => {
        const node = token.node
        if (!node || node.pool === p) return
        if (!p.quote) return
        const other = p.side0 === token ? p.side1 : p.side0
        const current = other.node
        if (current?.pool === p && current.parent === token) return
        const offered = via(node, token, p)
        if (
          offered &&
          (!current || (better(offered, fill(current)) && !routesThrough(token, other)))
        ) {
          if (current) invalidate(other)
          dirty.add(other)
          heap.push(offered)
        }
        const otherNode = other.node
        const back = otherNode && via(otherNode, other, p)
        const now = token.node
        if (back && now && better(back, fill(now)) && !routesThrough(other, token)) {
          invalidate(token)
          heap.push(back)
        }
      }

      if (!seeded) {
        seeded = true
        for (const a of anchorTokens) {
          dirty.add(a)
          seed(a)
        }
      }
      const sizeAnchors = new Set<TokenRecord>(changedAnchors)
      changedAnchors.clear()
      // Hubs first: their bounds were filed at the end of the last call, before anything
      // below them moved in this one. Otherwise in the order the pools changed.
      const hubPools: PoolRecord[] = []
      const otherPools: PoolRecord[] = []
      for (const p of changedPools) (p.user?.hub !== undefined ? hubPools : otherPools).push(p)
      const order = hubPools.concat(otherPools)
      for (const p of order) {
        const pool = p.pool
        const d0 = pool && p.token0.decimals
        const d1 = pool && p.token1.decimals
        const q = pool && d0 !== undefined && d1 !== undefined ? quote(pool, d0, d1) : undefined
        p.quote = q
        if (q) {
          p.side0 = p.token0
          p.side1 = p.token1
        }
        const user = p.user
        if (user && !(q && rescale(user, p))) invalidate(user)
      }
      // Every price has moved as far as it will before the search: offers from here on hold.
      for (const t of deferred) seed(t)
      deferred = null
      for (const p of order) {
        if (!p.quote) continue
        for (const [from, to] of [
          [p.side0, p.side1],
          [p.side1, p.side0],
        ] as const) {
          const node = from.node
          const c = node && via(node, from, p)
          if (!c) continue
          const current = to.node
          if (current && !(better(c, fill(current)) && !routesThrough(from, to))) continue
          if (current) invalidate(to)
          dirty.add(to)
          heap.push(c)
        }
      }
      const resized = [...changedPools]
      changedPools.clear()
      // Hubs: inside a hub's subtree every comparison stands while its widths are not capped
      // by the hub's (`holds`); a pool crossing its edge is checked once the prices of its two
      // sides have moved apart past the point filed for it (`key`), and filed again at the end.
      // Those against an anchor are re-sized whenever the hub's price moved.
      const anchorResized: PoolRecord[] = []
      const checked = new Map<Hub, Set<Crossing>>()
      for (const [token, hub] of hubs) {
        const node = hub.node
        if (token.node !== node) continue
        fill(node)
        const due = new Set<Crossing>()
        for (const [k, g] of hub.groups) {
          if (k !== null && k.node !== g.node) continue
          const kNode = g.node && fill(g.node)
          const ratio = node.priceUsd / (kNode ? kNode.priceUsd : 1)
          const kWidth = kNode ? kNode.width : Number.POSITIVE_INFINITY
          const kPrice = kNode ? kNode.priceUsd : 1
          popWhile(g.rises, (at) => at <= ratio, due)
          popWhile(g.falls, (at) => at >= ratio, due)
          popWhile(g.into, (at) => at * kPrice >= node.width * (1 - MARGIN), due)
          popWhile(g.toHub, (at) => at * node.priceUsd >= kWidth * (1 - MARGIN), due)
        }
        if (node.priceUsd !== hub.price) {
          for (const c of hub.anchored) {
            const p = c.pool
            if (!p.pool) continue
            anchorResized.push(p)
            sizeAnchors.add(p.token0.anchor ? p.token0 : p.token1)
          }
        }
        for (const c of due) if (c.inner.node) recheck(c.inner, c.pool)
        checked.set(hub, due)
      }
      for (const token of moved) {
        if (!token.node) continue
        for (const p of token.pools) recheck(token, p)
      }

      for (let next = heap.pop(); next; next = heap.pop()) {
        steps++
        const token = next.token
        if (token.node) continue
        const p = next.pool
        // The other side of the pool as quoted: the token that offered it, unless the pool was
        // set again with other tokens (an offer from a token it no longer holds is stale below).
        const parent = p ? (p.side0 === token ? p.side1 : p.side0) : null
        // Offered by a node that has since been re-routed (or taken out), or through a pool
        // that has changed since: stale.
        if (parent !== null && parent.node !== next.from) continue
        if (p && p.quote !== next.quote) continue
        const node: Node = {
          parent,
          up: next.from,
          pool: p,
          rel: next.rel,
          liq: next.liq,
          poolSize: 0,
          at: -1,
          priceUsd: 0,
          width: 0,
          hop: 0,
        }
        token.node = node
        routed.add(token)
        dirty.add(token)
        rerouted.add(token)
        if (parent) {
          parent.children ??= new Set()
          parent.children.add(token)
        }
        if (p) p.user = token
        for (const pp of token.pools) {
          if (!pp.quote) continue
          const c = via(node, token, pp)
          if (!c) continue
          const current = c.token.node
          if (current) {
            // A better route to a priced token through this one: re-route it (and its tree).
            if (!better(c, fill(current)) || routesThrough(token, c.token)) continue
            invalidate(c.token)
          }
          heap.push(c)
        }
      }

      // Pool sizes: of the re-routed tokens' pools, and of anchors next to any token whose USD
      // price moved (re-routed, or re-priced with an ancestor).
      for (const p of resized) resize(p)
      for (const p of anchorResized) resize(p)
      const resizeAnchorPools = (token: TokenRecord) => {
        if (!token.anchor && token.anchorPools === 0) return
        for (const p of token.pools) {
          if (!p.pool) continue
          const a0 = p.token0.anchor
          const a1 = p.token1.anchor
          if (a0) sizeAnchors.add(p.token0)
          if (a1) sizeAnchors.add(p.token1)
          if (a0 || a1) resize(p)
        }
      }
      for (const token of dirty) {
        // A hub re-priced in place: its anchor pools are among its crossing ones.
        if (!hubsMoved.includes(token) || rerouted.has(token)) resizeAnchorPools(token)
        const node = token.node
        if (node?.pool && node.parent) {
          const q = node.pool.quote
          node.poolSize = q ? sizeInParent(q, node.parent.address, node.rel) : 0
        }
      }
      for (const token of moved) if (!dirty.has(token)) resizeAnchorPools(token)
      for (const a of sizeAnchors) {
        const node = a.node
        if (node) node.poolSize = anchorSize(a)
      }

      updateHubs({ rerouted, moved, changed: resized, stale: staleHubs, fresh: newHubs, checked })

      const changed = new Map<Address, PricedToken | undefined>()
      for (const token of new Set([...dirty, ...sizeAnchors])) {
        const node = listed(token)
        const old = token.reported
        if (!node) {
          if (old) changed.set(token.address, undefined)
          token.reported = undefined
          continue
        }
        const now = toPrice(node)
        if (
          !old ||
          old.parent !== now.parent ||
          old.price !== now.price ||
          old.pool !== now.pool ||
          old.poolSize !== now.poolSize
        ) {
          changed.set(token.address, now)
          token.reported = now
        }
      }
      return { changed, steps }
    },
    route(address) {
      const t = tokens.get(address)
      const node = t && listed(t)
      return node
        ? {
            priceUsd: node.priceUsd,
            pool: node.pool ? node.pool.address : null,
            poolSizeUsd: sizeUsd(node),
            width: node.width,
            hop: node.hop,
            parent: node.parent ? node.parent.address : null,
          }
        : undefined
    },
    prices() {
      const out = new Map<Address, PricedToken>()
      for (const t of routed) {
        const node = listed(t)
        if (node) out.set(t.address, toPrice(node))
      }
      return out
    },
  }
}
