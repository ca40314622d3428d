import { describe, expect, test } from 'vitest'
import { createPrng } from '../dev/createPrng.ts'
import type { Address } from '../evm/types.ts'
import {
  createPriceRoutes,
  type PricedToken,
  type PriceRoutes,
  type PricingPool,
} from './createPriceRoutes.ts'
import { type RelativeRow, resolvePrices } from './resolvePrices.ts'

/** The random-graph test's seeds: SCRY_ROUTES_SEEDS=5000 SCRY_ROUTES_FIRST_SEED=1. */
const SEEDS = Number(process.env.SCRY_ROUTES_SEEDS ?? 40)
const FIRST_SEED = Number(process.env.SCRY_ROUTES_FIRST_SEED ?? 1)
const addr = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address
const USDC = addr(1)
const WETH = addr(2)
const A = addr(3)
const B = addr(4)
const decimals = new Map<Address, number>([
  [USDC, 6],
  [WETH, 18],
  [A, 18],
  [B, 8],
])
let next = 100
const v2 = (t0: Address, t1: Address, r0: number, r1: number): PricingPool => ({
  address: addr(next++),
  type: 'uniswap_v2',
  token0: t0,
  token1: t1,
  reserve0: BigInt(r0) * 10n ** BigInt(decimals.get(t0)!),
  reserve1: BigInt(r1) * 10n ** BigInt(decimals.get(t1)!),
  sqrtPriceX96: null,
  liquidity: null,
})
/** Every price from scratch: all pools and decimals, one settle. */
function fresh({
  pools,
  decimals,
  anchors,
  min,
}: {
  pools: Iterable<PricingPool>
  decimals: ReadonlyMap<Address, number>
  anchors: Address[]
  min: number
}) {
  const routes = createPriceRoutes({ anchors, minLiquidityUsd: min })
  for (const [token, d] of decimals) routes.setDecimals(token, d)
  for (const pool of pools) routes.setPool(pool.address, pool)
  routes.settle()
  return routes
}
const close = (x: number, y: number) =>
  x === y || Math.abs(x - y) <= 1e-9 * Math.max(Math.abs(x), Math.abs(y))
/**
 * `routes` prices the tokens `truth` prices, each through a route as wide and at the same
 * price (to rounding). Returns how many took the same pool (whose sizes are then compared).
 */
function expectAsWide(routes: PriceRoutes, truth: PriceRoutes, where: string) {
  expect([...routes.prices().keys()].sort(), where).toEqual([...truth.prices().keys()].sort())
  let samePool = 0
  for (const token of truth.prices().keys()) {
    const a = routes.route(token)!
    const b = truth.route(token)!
    const at = `${where} ${token}`
    expect(close(a.priceUsd, b.priceUsd), `${at} price`).toBe(true)
    expect(close(a.width, b.width), `${at} width`).toBe(true)
    // Among equally wide routes the deeper last pool wins, but which routes a token may take
    // depends on the routes of its neighbours (no cycles), so equally wide routes can settle
    // on different last pools: the same pool, then the same size.
    if (a.pool === b.pool) {
      samePool++
      expect(close(a.poolSizeUsd, b.poolSizeUsd), `${at} size`).toBe(true)
    }
  }
  return samePool
}
const price = (pools: PricingPool[], min = 1000) =>
  fresh({ pools, decimals, anchors: [USDC], min }).prices()

describe('createPriceRoutes', () => {
  test('prices through the deepest pool whose other side is priced', () => {
    const deep = v2(A, USDC, 1_000_000, 2_000_000)
    const shallow = v2(A, USDC, 1_000, 5_000)
    const prices = price([shallow, deep])
    expect(prices.get(A)).toEqual({
      priceUsd: 2,
      pool: deep.address,
      poolSizeUsd: 4_000_000,
      parent: USDC,
      price: 2,
      poolSize: 4_000_000,
    })
    expect(prices.get(USDC)).toEqual({
      priceUsd: 1,
      pool: null,
      poolSizeUsd: 4_000_000,
      parent: null,
      price: 1,
      poolSize: 4_000_000,
    })
  })

  test('routes through an intermediate token, as liquid as the thinnest hop', () => {
    const wethUsdc = v2(WETH, USDC, 1_000, 3_000_000)
    const bWeth = v2(B, WETH, 30_000, 10) // B = 10/30000 WETH = $1
    const bUsdcThin = v2(B, USDC, 2_000, 4_000) // $2, $8k: thinner than the WETH route
    const prices = price([wethUsdc, bWeth, bUsdcThin])
    expect(prices.get(WETH)?.priceUsd).toBe(3000)
    expect(prices.get(B)?.pool).toBe(bWeth.address)
    expect(prices.get(B)?.priceUsd).toBeCloseTo(1, 12)
    expect(prices.get(B)?.poolSizeUsd).toBeCloseTo(60_000, 6)
  })

  test('a pool cannot look deep through its own price: liquidity is the priced side', () => {
    // 1 A against $600 while a real $20k pool says A = $2: the tiny pool's A side would be
    // "worth" a lot at its own price, but only its USDC side counts.
    const real = v2(A, USDC, 5_000, 10_000)
    const fake = v2(A, USDC, 1, 600)
    expect(price([fake, real]).get(A)?.pool).toBe(real.address)
  })

  test('pools below the minimum liquidity never price; unknown decimals and empty pools are skipped', () => {
    expect(price([v2(A, USDC, 100, 400)]).has(A)).toBe(false)
    // An anchor is priced once a usable pool holds it, not before.
    expect(price([]).has(USDC)).toBe(false)
    expect(price([v2(A, USDC, 100, 400)]).get(USDC)?.priceUsd).toBe(1)
    expect(price([v2(A, USDC, 100, 400)], 100).get(A)?.priceUsd).toBe(4)
    const unknown = { ...v2(A, USDC, 1_000, 2_000), token0: addr(99) }
    expect(price([unknown]).has(addr(99))).toBe(false)
    expect(price([{ ...v2(A, USDC, 1, 1), reserve0: 0n }]).has(A)).toBe(false)
  })

  test('V3 pools are priced from sqrtPriceX96 and the decimals of both tokens', () => {
    // 1 WETH (18) = 2,500 USDC (6): token1 per token0 in raw units = 2500e6 / 1e18.
    const raw = (2500 * 1e6) / 1e18
    const pool: PricingPool = {
      address: addr(500),
      type: 'uniswap_v3',
      token0: WETH,
      token1: USDC,
      reserve0: 100n * 10n ** 18n,
      reserve1: 250_000n * 10n ** 6n,
      sqrtPriceX96: BigInt(Math.round(Math.sqrt(raw) * 2 ** 96)),
      // Full range: L = √(x·y) in raw units.
      liquidity: BigInt(Math.round(Math.sqrt(100e18 * 250_000e6))),
    }
    const weth = price([pool]).get(WETH)!
    expect(weth.priceUsd).toBeCloseTo(2500, 6)
    expect(weth.poolSizeUsd).toBeCloseTo(500_000, 0)
    // The same balances with almost nothing in range: too thin to price anything.
    expect(price([{ ...pool, liquidity: 10n ** 9n }]).has(WETH)).toBe(false)
  })

  test('behavior: a hub swap re-prices the hub only, and re-sizes anchor pools below it', () => {
    const hub = v2(USDC, WETH, 2_000_000, 1_000)
    // A is priced through WETH ($1); its thin USDC pool is USDC's largest by value (its A).
    const viaWeth = v2(WETH, A, 500, 1_000_000)
    const usdcA = v2(USDC, A, 1_000, 5_000_000)
    const routes = createPriceRoutes({ anchors: [USDC], minLiquidityUsd: 1000 })
    for (const [token, d] of decimals) routes.setDecimals(token, d)
    for (const pool of [hub, viaWeth, usdcA]) routes.setPool(pool.address, pool)
    routes.settle()
    expect(routes.route(A)).toMatchObject({ priceUsd: 1, pool: viaWeth.address })
    expect(routes.route(USDC)?.poolSizeUsd).toBe(5_001_000)

    // WETH doubles: A's price in WETH and its pool stay, its USD price and USDC's largest
    // pool follow.
    routes.setPool(hub.address, { ...hub, reserve0: hub.reserve0 * 2n })
    const { changed } = routes.settle()
    expect([...changed.keys()].sort()).toEqual([USDC, WETH].sort())
    expect(changed.get(WETH)).toMatchObject({ priceUsd: 4000, price: 4000, parent: USDC })
    expect(changed.get(USDC)).toMatchObject({ poolSize: 10_001_000, poolSizeUsd: 10_001_000 })
    expect(routes.route(A)).toMatchObject({
      priceUsd: 2,
      pool: viaWeth.address,
      // 500 WETH and 1,000,000 A at 0.0005 WETH: 1,000 WETH at $4,000.
      poolSizeUsd: 4_000_000,
      // Its thinnest pool: 500 WETH a side at $4,000 (the hub: 4,000,000 USDC a side).
      width: 4_000_000,
    })
    const truth = fresh({
      pools: [{ ...hub, reserve0: hub.reserve0 * 2n }, viaWeth, usdcA],
      decimals,
      anchors: [USDC],
      min: 1000,
    })
    expect(routes.prices()).toEqual(truth.prices())
  })

  test(
    'behavior: updated pool by pool, routes as good as those computed from scratch (random graphs)',
    () => {
      let compared = 0
      for (let seed = FIRST_SEED; seed < FIRST_SEED + SEEDS; seed++) {
        const prng = createPrng(seed)
        // Hubs (subtrees re-priced without a visit) from one token up, or at the default size.
        const hubSize = prng.pick([1, 2, 4, 64])
        const where = `seed ${seed} (hubs from ${hubSize})`
        const tokens = Array.from({ length: 24 }, (_, i) => addr(1000 + i))
        const anchors = tokens.slice(0, prng.between(1, 2))
        // Pools agree on every token's price (cents per whole token), as arbitrage keeps them:
        // then a token's price and its widest route's width do not depend on the route, and
        // the incremental answer can be held to the one computed from scratch.
        const cents = new Map<Address, bigint>()
        for (const t of tokens)
          cents.set(t, anchors.includes(t) ? 100n : BigInt(prng.between(1, 1e7)))
        const known = new Map<Address, number>()
        for (const t of tokens) if (prng.chance(0.9)) known.set(t, prng.pick([6, 8, 18]))
        /** A pool's size: each side holds `size` × the other side's price in cents. */
        const sizes = new Map<Address, bigint>()
        const pools = new Map<Address, PricingPool>()
        let n = 5000
        const build = (address: Address, t0: Address, t1: Address): PricingPool => {
          const size = sizes.get(address)!
          // A token whose decimals are unknown yet gets 18 when they are learnt.
          const unit = (t: Address) => 10n ** BigInt(known.get(t) ?? 18)
          return {
            address,
            type: 'uniswap_v2',
            token0: t0,
            token1: t1,
            reserve0: size * cents.get(t1)! * unit(t0),
            reserve1: size * cents.get(t0)! * unit(t1),
            sqrtPriceX96: null,
            liquidity: null,
          }
        }
        const addPool = () => {
          const address = addr(n++)
          const [t0, t1] = prng.sample(tokens, 2) as [Address, Address]
          // Sizes over seven orders of magnitude, so that some pools fall under the minimum.
          sizes.set(address, BigInt(Math.floor(10 ** prng.between(-2, 4) * (1 + prng.next())) + 1))
          pools.set(address, build(address, t0, t1))
          return address
        }
        for (let i = 0; i < 60; i++) addPool()
        const routes = createPriceRoutes({ anchors, minLiquidityUsd: 1000, hubSize })
        for (const [t, d] of known) routes.setDecimals(t, d)
        for (const pool of pools.values()) routes.setPool(pool.address, pool)
        /** The stored form: what the changes reported are applied to. */
        const stored = new Map<Address, RelativeRow>()
        const relative = (token: Address, p: PricedToken): RelativeRow => ({
          token,
          parent: p.parent,
          price: p.price,
          pool_size: p.poolSize,
        })
        for (let step = 0; step < 25; step++) {
          const { changed } = routes.settle()
          // The changes reported take the stored prices to the current ones exactly, and the
          // USD prices read back from them are the graph's, to the last bit.
          for (const [token, p] of changed) {
            if (p === undefined) stored.delete(token)
            else stored.set(token, relative(token, p))
          }
          const current = routes.prices()
          expect(stored, `${where} step ${step}`).toEqual(
            new Map([...current].map(([token, p]) => [token, relative(token, p)])),
          )
          const read = resolvePrices({ rows: stored.values(), anchors })
          expect(read, `${where} step ${step}`).toEqual(
            new Map(
              [...current].map(([token, p]) => [
                token,
                { priceUsd: p.priceUsd, poolSizeUsd: p.poolSizeUsd },
              ]),
            ),
          )
          const truth = fresh({ pools: pools.values(), decimals: known, anchors, min: 1000 })
          compared += expectAsWide(routes, truth, `${where} step ${step}`)
          // Change a few pools: deepen or drain, reprice a token, remove, add; learn decimals.
          for (let k = prng.between(1, 4); k > 0; k--) {
            const roll = prng.next()
            const address = prng.pick([...pools.keys()])
            const pool = pools.get(address)!
            if (roll < 0.4) {
              sizes.set(address, (sizes.get(address)! * BigInt(prng.between(1, 400))) / 100n + 1n)
              pools.set(address, build(address, pool.token0, pool.token1))
              routes.setPool(address, pools.get(address)!)
            } else if (roll < 0.6) {
              // Often a small move, as a swap in a hub's pool (its subtree re-priced in place).
              const token = prng.pick(tokens.filter((t) => !anchors.includes(t)))
              const [low, high] = prng.chance(0.5) ? [1, 400] : [9_700, 10_300]
              const scale = low === 1 ? 100n : 10_000n
              cents.set(token, (cents.get(token)! * BigInt(prng.between(low, high))) / scale + 1n)
              for (const [other, p] of pools) {
                if (p.token0 !== token && p.token1 !== token) continue
                pools.set(other, build(other, p.token0, p.token1))
                routes.setPool(other, pools.get(other)!)
              }
            } else if (roll < 0.75) {
              pools.delete(address)
              routes.setPool(address, null)
            } else if (roll < 0.9) {
              const added = addPool()
              routes.setPool(added, pools.get(added)!)
            } else {
              const token = prng.pick(tokens)
              if (!known.has(token)) {
                known.set(token, 18)
                routes.setDecimals(token, 18)
              }
            }
          }
        }
      }
      // Most tokens were routed through the same pool both ways, so their sizes were compared.
      expect(compared).toBeGreaterThan(SEEDS * 25 * 5)
      if (process.env.SCRY_ROUTES_SEEDS)
        console.log(`random graphs: seeds ${FIRST_SEED}..${FIRST_SEED + SEEDS - 1} passed`)
    },
    Math.max(60_000, SEEDS * 200),
  )

  test(
    'behavior: a hub whose pool swaps every step, routes as wide as those computed from scratch (random graphs)',
    () => {
      for (let seed = FIRST_SEED; seed < FIRST_SEED + SEEDS; seed++) {
        const prng = createPrng(seed)
        // Hubs from one token up, so that every re-priced subtree can take the path without a
        // visit, and the crossing pools' points are what finds the routes that change.
        const hubSize = prng.pick([1, 2, 4, 64])
        const where = `seed ${seed} (hubs from ${hubSize})`
        const usd = new Map<Address, number>([
          [USDC, 1],
          [WETH, 2000],
        ])
        const known = new Map<Address, number>([
          [USDC, 6],
          [WETH, 18],
        ])
        const pools = new Map<Address, PricingPool>()
        let n = 9000
        const add = (t0: Address, t1: Address, sideUsd: number, skew = 1) => {
          const raw = (t: Address, units: number) =>
            BigInt(Math.max(1, Math.floor(units * 1e6))) * 10n ** BigInt(known.get(t)! - 6)
          const pool: PricingPool = {
            address: addr(n++),
            type: 'uniswap_v2',
            token0: t0,
            token1: t1,
            reserve0: raw(t0, sideUsd / usd.get(t0)!),
            reserve1: raw(t1, (sideUsd / usd.get(t1)!) * skew),
            sqrtPriceX96: null,
            liquidity: null,
          }
          pools.set(pool.address, pool)
        }
        const hub = addr(n)
        add(USDC, WETH, 5e7)
        // Most tokens against WETH, some against USDC or another token (deeper trees, hubs
        // below hubs), a few more pools between the hub's tokens and anything: sides from $100
        // (under the minimum) to $20M, prices that disagree by up to 3 %.
        const tokens: Address[] = []
        for (let i = 0, count = prng.between(5, 120); i < count; i++) {
          const roll = prng.next()
          const side = 10 ** prng.between(2, 7) * (1 + prng.next())
          const skew = 0.97 + 0.06 * prng.next()
          if (roll < 0.04) {
            const a = prng.pick([USDC, WETH, ...tokens])
            const b = prng.pick([USDC, WETH])
            if (a !== b) add(a, b, side, skew)
          } else if (roll < 0.3 && tokens.length >= 2) {
            const [a, b] = prng.sample(tokens, 2) as [Address, Address]
            add(a, b, side, skew)
          } else {
            const t = addr(20_000 + i)
            known.set(t, prng.pick([6, 8, 18]))
            usd.set(t, 10 ** (prng.next() * 6 - 3))
            const other =
              roll < 0.4 && tokens.length > 0 ? prng.pick(tokens) : roll < 0.85 ? WETH : USDC
            tokens.push(t)
            add(t, other, side)
          }
        }
        const routes = createPriceRoutes({ anchors: [USDC], minLiquidityUsd: 1000, hubSize })
        for (const [t, d] of known) routes.setDecimals(t, d)
        for (const pool of pools.values()) routes.setPool(pool.address, pool)
        for (let step = 0; step < 30; step++) {
          routes.settle()
          const truth = fresh({
            pools: pools.values(),
            decimals: known,
            anchors: [USDC],
            min: 1000,
          })
          expectAsWide(routes, truth, `${where} step ${step}`)
          // The hub swaps (its price moves up to 1 %, now and then 20 %), and a few pools
          // anywhere; now and then one goes.
          const touched = new Set<Address>([hub])
          for (let k = prng.between(0, 3); k > 0; k--) touched.add(prng.pick([...pools.keys()]))
          for (const address of touched) {
            const pool = pools.get(address)!
            const roll = prng.next()
            if (roll < 0.05 && address !== hub) {
              pools.delete(address)
              routes.setPool(address, null)
              continue
            }
            const move = roll < 0.8 ? 1 + (prng.next() - 0.5) * 0.02 : 0.8 + prng.next() * 0.4
            const k = BigInt(Math.round(Math.sqrt(move) * 1e6))
            const next = {
              ...pool,
              reserve0: (pool.reserve0 * 1_000_000n) / k + 1n,
              reserve1: (pool.reserve1 * k) / 1_000_000n + 1n,
            }
            pools.set(address, next)
            routes.setPool(address, next)
          }
        }
      }
    },
    Math.max(60_000, SEEDS * 200),
  )
})
