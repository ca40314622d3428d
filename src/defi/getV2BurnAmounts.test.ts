import { expect, test } from 'vitest'
import { getV2BurnAmounts } from './getV2BurnAmounts.ts'
import { getV2FeeLiquidity } from './getV2FeeLiquidity.ts'
import { isqrt } from './isqrt.ts'

test('default', () => {
  // No fee: lp · balance / supply, rounded down.
  expect(
    getV2BurnAmounts({
      liquidity: 300n,
      balance0: 1000n,
      balance1: 7n,
      reserve0: 1000n,
      reserve1: 7n,
      totalSupply: 1000n,
      kLast: 0n,
      feeOn: false,
    }),
  ).toEqual({ amount0: 300n, amount1: 2n, feeLiquidity: 0n })
})

test('behavior: pending protocol fee dilutes the burn', () => {
  // √k grew from 1,000 to 4,000: fee = 1000 · 3000 / (5 · 4000 + 1000) = 142 (142.86 floored).
  const inputs = { reserve0: 4000n, reserve1: 4000n, totalSupply: 1000n, kLast: 1000n * 1000n }
  expect(getV2FeeLiquidity({ ...inputs, feeOn: true })).toBe(142n)
  expect(getV2FeeLiquidity({ ...inputs, feeOn: false })).toBe(0n)
  expect(getV2FeeLiquidity({ ...inputs, kLast: 0n, feeOn: true })).toBe(0n)
  // √k shrank (can happen with rounding, never with fees): nothing minted.
  expect(getV2FeeLiquidity({ ...inputs, kLast: 5000n * 5000n, feeOn: true })).toBe(0n)
  expect(
    getV2BurnAmounts({ ...inputs, liquidity: 500n, balance0: 4000n, balance1: 4100n, feeOn: true }),
  ).toEqual({ amount0: 1751n, amount1: 1795n, feeLiquidity: 142n })
})

test('behavior: empty pair', () => {
  expect(
    getV2BurnAmounts({
      liquidity: 0n,
      balance0: 0n,
      balance1: 0n,
      reserve0: 0n,
      reserve1: 0n,
      totalSupply: 0n,
      kLast: 0n,
      feeOn: true,
    }),
  ).toEqual({ amount0: 0n, amount1: 0n, feeLiquidity: 0n })
})

test('behavior: isqrt rounds down', () => {
  expect([0n, 1n, 2n, 3n, 4n, 15n, 16n, 17n].map(isqrt)).toEqual([0n, 1n, 1n, 1n, 2n, 3n, 4n, 4n])
  const big = 2n ** 224n - 1n
  const root = isqrt(big)
  expect(root * root <= big && (root + 1n) * (root + 1n) > big).toBe(true)
  expect(() => isqrt(-1n)).toThrowErrorMatchingInlineSnapshot(
    `[RangeError: Square root of a negative number (-1).]`,
  )
})
