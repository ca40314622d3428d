import type { PoolType } from '../evm/poolTypes.ts'
import type { Address } from '../evm/types.ts'
import { createMaxHeap } from '../utils/createMaxHeap.ts'
import { createAnchorSizes } from './createAnchorSizes.ts'
import { createHubs, type Hub, MARGIN } from './createHubs.ts'
import { type Quoted, quote, sizeInParent } from './quote.ts'
import { better, type Candidate, type Node } from './routeNode.ts'

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
  const anchorSet = new Set(anchors)
  const pools = new Map<Address, PricingPool>()
  const decimals = new Map<Address, number>()
  const quotes = new Map<Address, Quoted>()
  /** Every pool (usable or not) by token. */
  const byToken = new Map<Address, Set<Address>>()
  const routes = new Map<Address, Node>()
  const children = new Map<Address, Set<Address>>()
  /** The token whose route's last pool is this one (at most one). */
  const users = new Map<Address, Address>()
  const changedPools = new Set<Address>()
  /** Tokens of the changed pools (old and new sides): anchors among them are re-sized. */
  const changedTokens = new Set<Address>()
  /** Anchors are priced from the start; on the first settle they are seeded. */
  let seeded = false
  /** Bumped whenever a node's `rel` or `liq` changes in place: derived values are then redone. */
  let version = 0

  /** How many pools join each token to an anchor (absent: it has no anchor pool to re-size). */
  const anchorPoolCount = new Map<Address, number>()
  const link = (token: Address, pool: Address, other: Address) => {
    let set = byToken.get(token)
    if (!set) {
      set = new Set()
      byToken.set(token, set)
    }
    if (set.has(pool)) return
    set.add(pool)
    if (anchorSet.has(other)) anchorPoolCount.set(token, (anchorPoolCount.get(token) ?? 0) + 1)
  }
  const unlink = (token: Address, pool: Address, other: Address) => {
    if (!byToken.get(token)?.delete(pool) || !anchorSet.has(other)) return
    const left = (anchorPoolCount.get(token) ?? 0) - 1
    if (left > 0) anchorPoolCount.set(token, left)
    else anchorPoolCount.delete(token)
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

  /** The candidate route to `to` through `q` from priced `from`, if the pool is deep enough. */
  function via(from: Node, fromToken: Address, q: Quoted): Candidate | undefined {
    fill(from)
    const isToken0 = q.pool.token0 === fromToken
    const to = isToken0 ? q.pool.token1 : q.pool.token0
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
      pool: q,
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
  const routesThrough = (token: Address, via: Address) => {
    if (token === via) return true
    // Up the parents' nodes (`up` is current for a node in the tree): one lookup, not one a hop.
    for (let n = routes.get(token); n; n = n.up ?? undefined) if (n.parent === via) return true
    return false
  }
  /** What the anchor sizes and the hubs read of the tree and the pools. */
  const tree = { anchorSet, pools, quotes, byToken, routes, children, fill }
  const { resize, anchorSize } = createAnchorSizes(tree)
  const { hubs, holds, popWhile, updateHubs } = createHubs({
    ...tree,
    minLiquidityUsd,
    hubSize,
    routesThrough,
  })

  /** What `settle` last reported (what the next call's changes are relative to). */
  const reported = new Map<Address, PricedToken>()
  /**
   * A token's route if it is priced: an anchor is $1 only once some usable pool holds it, so
   * prices do not depend on whether pools were ever seen (a restart, a chain without a DEX).
   */
  const listed = (token: Address): Node | undefined => {
    const node = routes.get(token)
    if (!node || node.parent !== null) return node && fill(node)
    for (const address of byToken.get(token) ?? []) if (quotes.has(address)) return fill(node)
    return undefined
  }

  /** A route's pool in USD: its size in parent units at the parent's price (an anchor's: USD). */
  const sizeUsd = (node: Node) =>
    node.up === null ? node.poolSize : node.poolSize * fill(node.up).priceUsd
  const toPrice = (node: Node): PricedToken => ({
    priceUsd: node.priceUsd,
    pool: node.pool,
    poolSizeUsd: sizeUsd(node),
    parent: node.parent,
    price: node.rel,
    poolSize: node.poolSize,
  })

  return {
    setPool(address, pool) {
      const old = pools.get(address)
      // A pool's tokens never change: a new state of a known pool keeps its links (taking a
      // pool out of WETH's set of thousands and putting it back is most of a swap's cost).
      const same = old && pool && old.token0 === pool.token0 && old.token1 === pool.token1
      if (old && !same) {
        unlink(old.token0, address, old.token1)
        unlink(old.token1, address, old.token0)
        changedTokens.add(old.token0).add(old.token1)
      }
      if (pool) {
        changedTokens.add(pool.token0).add(pool.token1)
        pools.set(address, pool)
        if (!same) {
          link(pool.token0, address, pool.token1)
          link(pool.token1, address, pool.token0)
        }
      } else pools.delete(address)
      changedPools.add(address)
    },
    setDecimals(token, d) {
      if (decimals.get(token) === d) return
      decimals.set(token, d)
      for (const address of byToken.get(token) ?? []) {
        changedPools.add(address)
        const pool = pools.get(address)
        if (pool) changedTokens.add(pool.token0).add(pool.token1)
      }
    },
    hasDecimals: (token) => decimals.has(token),
    settle() {
      const dirty = new Set<Address>()
      const heap = createMaxHeap<Candidate>(better)
      let steps = 0
      /** Tokens taken out of the tree or put in (their pools may now cross a hub's edge). */
      const rerouted = new Set<Address>()
      /**
       * Until every changed pool is in, prices may still move: tokens taken out are searched
       * from their neighbours only then (an offer carries the prices it was made with).
       */
      let deferred: Address[] | null = []

      /** Takes `token` and every token routed through it out of the tree. */
      const invalidate = (token: Address) => {
        const stack = [token]
        const removed: Address[] = []
        while (stack.length > 0) {
          const t = stack.pop() as Address
          const node = routes.get(t)
          if (!node) continue
          routes.delete(t)
          if (node.parent) children.get(node.parent)?.delete(t)
          if (node.pool) users.delete(node.pool)
          dirty.add(t)
          rerouted.add(t)
          removed.push(t)
          for (const c of children.get(t) ?? []) stack.push(c)
          children.delete(t)
        }
        // Restart the search at the boundary: routes from still-priced neighbours.
        if (deferred) deferred.push(...removed)
        else for (const t of removed) seed(t)
      }
      const seed = (token: Address) => {
        if (anchorSet.has(token)) {
          heap.push({
            token,
            price: 1,
            rel: 1,
            liq: Number.POSITIVE_INFINITY,
            pool: null,
            width: Number.POSITIVE_INFINITY,
            hop: Number.POSITIVE_INFINITY,
            from: null,
          })
          return
        }
        for (const address of byToken.get(token) ?? []) {
          const q = quotes.get(address)
          if (!q) continue
          const from = q.pool.token0 === token ? q.pool.token1 : q.pool.token0
          const node = routes.get(from)
          const c = node && via(node, from, q)
          if (c) heap.push(c)
        }
      }

      /** Tokens re-priced by a visit (`rescale`), whose pools are checked afterwards. */
      const moved: Address[] = []
      /** Hubs re-priced without a visit, whose crossing pools are checked afterwards. */
      const hubsMoved: Address[] = []
      /** Hubs whose values below them were filed in units that moved (dropped at the end). */
      const staleHubs = new Set<Address>()
      /** Tokens whose visit was large enough to keep them as hubs. */
      const newHubs = new Set<Address>()
      /**
       * The pool of `token`'s route changed but still prices it from the same parent: the
       * token keeps its route with a new price in its parent's units, and the tokens routed
       * through it keep theirs (their prices, liquidities and widths follow, derived). A hub
       * whose subtree `holds` is done: its crossing pools are checked once every change is
       * in. Otherwise the subtree is visited: a descendant whose pool no longer carries the
       * route is taken out, and every pool of the visited tokens is checked afterwards.
       */
      const rescale = (token: Address, q: Quoted): boolean => {
        const node = routes.get(token)
        const parent = node?.parent
        const parentNode = parent ? routes.get(parent) : undefined
        const c = parent && parentNode ? via(parentNode, parent, q) : undefined
        if (!node || !c || c.token !== token) return false
        fill(node)
        const before = { priceUsd: node.priceUsd, width: node.width }
        node.rel = c.rel
        node.liq = c.liq
        version++
        // Only the token whose pool changed moves in its parent's units; below it, routes
        // keep their pools and relative prices, and move in USD only (not reported).
        dirty.add(token)
        const hub = hubs.get(token)
        if (hub && hub.node === node && !staleHubs.has(token) && holds(hub, node, before)) {
          hubsMoved.push(token)
          // The hubs above filed this subtree in their units, which this move changed.
          for (let a = parent; a; a = routes.get(a)?.parent ?? null)
            if (hubs.has(a)) staleHubs.add(a)
          return true
        }
        const stack = [token]
        let visited = 0
        while (stack.length > 0) {
          const t = stack.pop() as Address
          const tNode = routes.get(t) as Node
          moved.push(t)
          visited++
          for (const child of children.get(t) ?? []) {
            const childNode = routes.get(child)
            const cq = childNode?.pool ? quotes.get(childNode.pool) : undefined
            const childOffer = cq && via(tNode, t, cq)
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
      const recheck = (token: Address, address: Address) => {
        const node = routes.get(token)
        if (!node || node.pool === address) return
        const pq = quotes.get(address)
        if (!pq) return
        const other = pq.pool.token0 === token ? pq.pool.token1 : pq.pool.token0
        const current = routes.get(other)
        if (current?.pool === address && current.parent === token) return
        const offered = via(node, token, pq)
        if (
          offered &&
          (!current || (better(offered, fill(current)) && !routesThrough(token, other)))
        ) {
          if (current) invalidate(other)
          dirty.add(other)
          heap.push(offered)
        }
        const otherNode = routes.get(other)
        const back = otherNode && via(otherNode, other, pq)
        const now = routes.get(token)
        if (back && now && better(back, fill(now)) && !routesThrough(other, token)) {
          invalidate(token)
          heap.push(back)
        }
      }

      if (!seeded) {
        seeded = true
        for (const a of anchorSet) {
          dirty.add(a)
          seed(a)
        }
      }
      const sizeAnchors = new Set<Address>()
      for (const token of changedTokens) if (anchorSet.has(token)) sizeAnchors.add(token)
      changedTokens.clear()
      // Hubs first: their bounds were filed at the end of the last call, before anything
      // below them moved in this one. Otherwise in the order the pools changed.
      const hubPools: Address[] = []
      const otherPools: Address[] = []
      for (const address of changedPools) {
        const user = users.get(address)
        ;(user !== undefined && hubs.has(user) ? hubPools : otherPools).push(address)
      }
      const order = hubPools.concat(otherPools)
      for (const address of order) {
        const pool = pools.get(address)
        const d0 = pool && decimals.get(pool.token0)
        const d1 = pool && decimals.get(pool.token1)
        const q = pool && d0 !== undefined && d1 !== undefined ? quote(pool, d0, d1) : undefined
        if (q) quotes.set(address, q)
        else quotes.delete(address)
        const user = users.get(address)
        if (user && !(q && rescale(user, q))) invalidate(user)
      }
      // Every price has moved as far as it will before the search: offers from here on hold.
      for (const t of deferred) seed(t)
      deferred = null
      for (const address of order) {
        const q = quotes.get(address)
        if (!q) continue
        for (const [from, to] of [
          [q.pool.token0, q.pool.token1],
          [q.pool.token1, q.pool.token0],
        ] as const) {
          const node = routes.get(from)
          const c = node && via(node, from, q)
          if (!c) continue
          const current = routes.get(to)
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
      const anchorResized: Address[] = []
      const checked = new Map<Hub, Set<Address>>()
      for (const [token, hub] of hubs) {
        const node = hub.node
        if (routes.get(token) !== node) continue
        fill(node)
        const due = new Set<Address>()
        for (const [k, g] of hub.groups) {
          if (k !== null && routes.get(k) !== g.node) continue
          const kNode = g.node && fill(g.node)
          const ratio = node.priceUsd / (kNode ? kNode.priceUsd : 1)
          const kWidth = kNode ? kNode.width : Number.POSITIVE_INFINITY
          const kPrice = kNode ? kNode.priceUsd : 1
          popWhile(hub, g.rises, (at) => at <= ratio, due)
          popWhile(hub, g.falls, (at) => at >= ratio, due)
          popWhile(hub, g.into, (at) => at * kPrice >= node.width * (1 - MARGIN), due)
          popWhile(hub, g.toHub, (at) => at * node.priceUsd >= kWidth * (1 - MARGIN), due)
        }
        if (node.priceUsd !== hub.price) {
          for (const address of hub.anchored) {
            const pool = pools.get(address)
            if (!pool) continue
            anchorResized.push(address)
            sizeAnchors.add(anchorSet.has(pool.token0) ? pool.token0 : pool.token1)
          }
        }
        for (const address of due) {
          const inner = hub.crossing.get(address)
          if (inner && routes.has(inner)) recheck(inner, address)
        }
        checked.set(hub, due)
      }
      for (const token of moved) {
        if (!routes.has(token)) continue
        for (const address of byToken.get(token) ?? []) recheck(token, address)
      }

      for (let next = heap.pop(); next; next = heap.pop()) {
        steps++
        if (routes.has(next.token)) continue
        const q = next.pool
        const parent = q ? (q.pool.token0 === next.token ? q.pool.token1 : q.pool.token0) : null
        // Offered by a node that has since been re-routed (or taken out), or through a pool
        // that has changed since: stale.
        if (parent !== null && routes.get(parent) !== next.from) continue
        if (q && quotes.get(q.pool.address) !== q) continue
        const node: Node = {
          parent,
          up: next.from,
          pool: q ? q.pool.address : null,
          rel: next.rel,
          liq: next.liq,
          poolSize: 0,
          at: -1,
          priceUsd: 0,
          width: 0,
          hop: 0,
        }
        routes.set(next.token, node)
        dirty.add(next.token)
        rerouted.add(next.token)
        if (parent) {
          let set = children.get(parent)
          if (!set) {
            set = new Set()
            children.set(parent, set)
          }
          set.add(next.token)
        }
        if (q) users.set(q.pool.address, next.token)
        for (const address of byToken.get(next.token) ?? []) {
          const pq = quotes.get(address)
          if (!pq) continue
          const c = via(node, next.token, pq)
          if (!c) continue
          const current = routes.get(c.token)
          if (current) {
            // A better route to a priced token through this one: re-route it (and its tree).
            if (!better(c, fill(current)) || routesThrough(next.token, c.token)) continue
            invalidate(c.token)
          }
          heap.push(c)
        }
      }

      // Pool sizes: of the re-routed tokens' pools, and of anchors next to any token whose USD
      // price moved (re-routed, or re-priced with an ancestor).
      for (const address of resized) resize(address)
      for (const address of anchorResized) resize(address)
      const resizeAnchorPools = (token: Address) => {
        if (!anchorSet.has(token) && !anchorPoolCount.has(token)) return
        for (const address of byToken.get(token) ?? []) {
          const pool = pools.get(address)
          if (!pool) continue
          const a0 = anchorSet.has(pool.token0)
          const a1 = anchorSet.has(pool.token1)
          if (a0) sizeAnchors.add(pool.token0)
          if (a1) sizeAnchors.add(pool.token1)
          if (a0 || a1) resize(address)
        }
      }
      for (const token of dirty) {
        // A hub re-priced in place: its anchor pools are among its crossing ones.
        if (!hubsMoved.includes(token) || rerouted.has(token)) resizeAnchorPools(token)
        const node = routes.get(token)
        if (node?.pool && node.parent) {
          const q = quotes.get(node.pool)
          node.poolSize = q ? sizeInParent(q, node.parent, node.rel) : 0
        }
      }
      for (const token of moved) if (!dirty.has(token)) resizeAnchorPools(token)
      for (const a of sizeAnchors) {
        const node = routes.get(a)
        if (node) node.poolSize = anchorSize(a)
      }

      updateHubs({ rerouted, moved, changed: resized, stale: staleHubs, fresh: newHubs, checked })

      const changed = new Map<Address, PricedToken | undefined>()
      for (const token of new Set([...dirty, ...sizeAnchors])) {
        const node = listed(token)
        const old = reported.get(token)
        if (!node) {
          if (old) changed.set(token, undefined)
          reported.delete(token)
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
          changed.set(token, now)
          reported.set(token, now)
        }
      }
      return { changed, steps }
    },
    route(token) {
      const node = listed(token)
      return node
        ? {
            priceUsd: node.priceUsd,
            pool: node.pool,
            poolSizeUsd: sizeUsd(node),
            width: node.width,
            hop: node.hop,
            parent: node.parent,
          }
        : undefined
    },
    prices() {
      const out = new Map<Address, PricedToken>()
      for (const token of routes.keys()) {
        const node = listed(token)
        if (node) out.set(token, toPrice(node))
      }
      return out
    },
  }
}
