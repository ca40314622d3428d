import { expect, test } from 'vitest'
import type { Pool } from '../pools/poolTypes.ts'
import { choosePoolPrice, type PoolQuote } from './choosePoolPrice.ts'

const reserves = (address: string, mintA: string, mintB: string): Pool => ({
  type: 'raydium_cpmm',
  address,
  mintA,
  mintB,
  vaultA: `${address}-a`,
  vaultB: `${address}-b`,
  state: { kind: 'reserves', owedA: 0n, owedB: 0n },
})
const quote = (pool: Pool, a: number, b: number): PoolQuote => ({
  pool,
  balanceA: BigInt(a * 1e6),
  balanceB: BigInt(b * 1e6),
  decimalsA: 6,
  decimalsB: 6,
})

test('behavior: the most liquid route wins, a route is as liquid as its weakest hop', () => {
  const quotes = [
    // T/USDC at 2.0 with $200k of liquidity
    quote(reserves('direct', 'T', 'USDC'), 50_000, 100_000),
    // T/X at 1 X per T with $20M of vaults, but X is priced (at 3.0) by a $1k route
    quote(reserves('deep', 'T', 'X'), 10_000_000, 10_000_000),
  ]
  const usdc = { priceUsd: 1, routeLiquidityUsd: Number.POSITIVE_INFINITY }
  const thin = { priceUsd: 3, routeLiquidityUsd: 1_000 }
  const price = choosePoolPrice({
    mint: 'T',
    quotes,
    priceOf: (mint) => (mint === 'USDC' ? usdc : mint === 'X' ? thin : undefined),
  })
  expect(price).toMatchObject({ priceUsd: 2, liquidityUsd: 200_000, poolAddress: 'direct' })
  // with X priced by a deep route, the deep pool wins
  const deep = choosePoolPrice({
    mint: 'T',
    quotes,
    priceOf: (mint) =>
      mint === 'USDC' ? usdc : mint === 'X' ? { priceUsd: 3, routeLiquidityUsd: 1e9 } : undefined,
  })
  expect(deep).toMatchObject({ priceUsd: 3, poolAddress: 'deep' })
  // the token on the B side: price is the inverse
  const inverse = choosePoolPrice({
    mint: 'T',
    quotes: [quote(reserves('b-side', 'USDC', 'T'), 100_000, 25_000)],
    priceOf: (mint) => (mint === 'USDC' ? usdc : undefined),
  })
  expect(inverse?.priceUsd).toBe(4)
  expect(choosePoolPrice({ mint: 'T', quotes, priceOf: () => undefined })).toBeUndefined()
})

test('behavior: a concentrated pool at a made-up price with nothing in range does not win', () => {
  const usdc = { priceUsd: 1, routeLiquidityUsd: Number.POSITIVE_INFINITY }
  const clmm = (address: string, sqrtPriceX64: bigint, liquidity: bigint): Pool => ({
    ...reserves(address, 'T', 'USDC'),
    type: 'orca_whirlpool',
    state: { kind: 'sqrtPrice', sqrtPriceX64, liquidity },
  })
  // Real: T = 2 USDC (same decimals), $200k per side, all in range (L = √(a·b)).
  const real = quote(
    clmm(
      'real',
      BigInt(Math.round(Math.sqrt(2) * 2 ** 64)),
      BigInt(Math.floor(Math.sqrt(1e11 * 2e11))),
    ),
    100_000,
    200_000,
  )
  // Fake: T = 1,000,000 USDC, $5M of USDC parked out of range, almost no liquidity in range.
  const fake = quote(clmm('fake', BigInt(1000 * 2 ** 64), 1_000n), 1, 5_000_000)
  const price = choosePoolPrice({
    mint: 'T',
    quotes: [fake, real],
    priceOf: (mint) => (mint === 'USDC' ? usdc : undefined),
  })
  expect(price?.poolAddress).toBe('real')
  expect(price?.priceUsd).toBeCloseTo(2, 9)
})
