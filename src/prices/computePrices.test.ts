import { describe, expect, test } from 'vitest'
import type { Address } from '../evm/types.ts'
import { computePrices, type PricingPool } from './computePrices.ts'

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
const price = (pools: PricingPool[], min = 1000) =>
  computePrices({ pools, decimals, anchors: [USDC], minLiquidityUsd: min })

describe('computePrices', () => {
  test('prices through the deepest pool whose other side is priced', () => {
    const deep = v2(A, USDC, 1_000_000, 2_000_000)
    const shallow = v2(A, USDC, 1_000, 5_000)
    const prices = price([shallow, deep])
    expect(prices.get(A)).toEqual({ priceUsd: 2, pool: deep.address, poolSizeUsd: 4_000_000 })
    expect(prices.get(USDC)).toEqual({ priceUsd: 1, pool: null, poolSizeUsd: 4_000_000 })
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
})
