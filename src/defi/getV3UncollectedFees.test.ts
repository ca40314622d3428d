import { expect, test } from 'vitest'
import { getV3FeeGrowthInside } from './getV3FeeGrowthInside.ts'
import { getV3UncollectedFees } from './getV3UncollectedFees.ts'

const Q128 = 2n ** 128n
const U256 = 2n ** 256n

test('default', () => {
  // In range: inside = global − lower.outside − upper.outside.
  const inside = getV3FeeGrowthInside({
    tick: 0,
    tickLower: -60,
    tickUpper: 60,
    feeGrowthGlobalX128: 100n * Q128,
    feeGrowthOutsideLowerX128: 30n * Q128,
    feeGrowthOutsideUpperX128: 20n * Q128,
  })
  expect(inside).toBe(50n * Q128)
  expect(
    getV3UncollectedFees({
      liquidity: 1000n,
      feeGrowthInsideX128: inside,
      feeGrowthInsideLastX128: 40n * Q128,
      tokensOwed: 7n,
    }),
  ).toBe(10_007n)
})

test('behavior: below and above the range use the other side of each tick', () => {
  const ticks = {
    tickLower: -60,
    tickUpper: 60,
    feeGrowthGlobalX128: 100n,
    feeGrowthOutsideLowerX128: 30n,
    feeGrowthOutsideUpperX128: 20n,
  }
  // tick < lower: below = global − lower.outside = 70, above = 20 → 100 − 70 − 20 = 10.
  expect(getV3FeeGrowthInside({ ...ticks, tick: -61 })).toBe(10n)
  // tick ≥ upper: below = 30, above = global − upper.outside = 80 → −10 mod 2^256.
  expect(getV3FeeGrowthInside({ ...ticks, tick: 60 })).toBe(U256 - 10n)
})

test('behavior: wrapping arithmetic', () => {
  // The last snapshot is "above" the current value mod 2^256: growth since is 10, not negative.
  expect(
    getV3UncollectedFees({
      liquidity: Q128,
      feeGrowthInsideX128: 5n,
      feeGrowthInsideLastX128: U256 - 5n,
      tokensOwed: 0n,
    }),
  ).toBe(10n)
  // The manager truncates to uint128.
  expect(
    getV3UncollectedFees({
      liquidity: Q128,
      feeGrowthInsideX128: Q128 + 3n,
      feeGrowthInsideLastX128: 0n,
      tokensOwed: 1n,
    }),
  ).toBe(4n)
})
