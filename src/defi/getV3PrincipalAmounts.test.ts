import { expect, test } from 'vitest'
import { getAmount0Delta } from './getAmount0Delta.ts'
import { getAmount1Delta } from './getAmount1Delta.ts'
import { getSqrtRatioAtTick } from './getSqrtRatioAtTick.ts'
import { getV3PrincipalAmounts } from './getV3PrincipalAmounts.ts'

const Q96 = 2n ** 96n
const L = 10n ** 18n

test('default', () => {
  // In range at price 1: both tokens.
  const amounts = getV3PrincipalAmounts({
    liquidity: L,
    sqrtPriceX96: Q96,
    tick: 0,
    tickLower: -60,
    tickUpper: 60,
  })
  expect(amounts.amount0).toBeGreaterThan(0n)
  expect(amounts.amount1).toBeGreaterThan(0n)
  expect(amounts).toEqual({
    amount0: getAmount0Delta({
      sqrtRatioAX96: Q96,
      sqrtRatioBX96: getSqrtRatioAtTick(60),
      liquidity: L,
    }),
    amount1: getAmount1Delta({
      sqrtRatioAX96: getSqrtRatioAtTick(-60),
      sqrtRatioBX96: Q96,
      liquidity: L,
    }),
  })
})

test('behavior: out of range holds one token', () => {
  const range = { liquidity: L, tickLower: -60, tickUpper: 60 }
  const all0 = getAmount0Delta({
    sqrtRatioAX96: getSqrtRatioAtTick(-60),
    sqrtRatioBX96: getSqrtRatioAtTick(60),
    liquidity: L,
  })
  const all1 = getAmount1Delta({
    sqrtRatioAX96: getSqrtRatioAtTick(60),
    sqrtRatioBX96: getSqrtRatioAtTick(-60),
    liquidity: L,
  })
  expect(
    getV3PrincipalAmounts({ ...range, tick: -61, sqrtPriceX96: getSqrtRatioAtTick(-61) }),
  ).toEqual({ amount0: all0, amount1: 0n })
  expect(
    getV3PrincipalAmounts({ ...range, tick: 60, sqrtPriceX96: getSqrtRatioAtTick(60) }),
  ).toEqual({ amount0: 0n, amount1: all1 })
  // A downward swap that stops on the lower tick's price leaves the tick one below: the
  // position is out of range by its tick, though the price is its lower bound.
  expect(
    getV3PrincipalAmounts({ ...range, tick: -61, sqrtPriceX96: getSqrtRatioAtTick(-60) }),
  ).toEqual({ amount0: all0, amount1: 0n })
})

test('behavior: either order of prices, positive prices only', () => {
  const sqrtRatioAX96 = 79228162514264337593543950336n + 12345n
  const sqrtRatioBX96 = 79228162514264337593543950336n * 2n + 777n
  const liquidity = 123456789012345678901234n
  const amount0 = getAmount0Delta({ sqrtRatioAX96, sqrtRatioBX96, liquidity })
  expect(amount0).toBe(
    ((liquidity << 96n) * (sqrtRatioBX96 - sqrtRatioAX96)) / (sqrtRatioAX96 * sqrtRatioBX96),
  )
  expect(
    getAmount0Delta({ sqrtRatioAX96: sqrtRatioBX96, sqrtRatioBX96: sqrtRatioAX96, liquidity }),
  ).toBe(amount0)
  const amount1 = getAmount1Delta({ sqrtRatioAX96, sqrtRatioBX96, liquidity })
  expect(amount1).toBe((liquidity * (sqrtRatioBX96 - sqrtRatioAX96)) / 2n ** 96n)
  expect(
    getAmount1Delta({ sqrtRatioAX96: sqrtRatioBX96, sqrtRatioBX96: sqrtRatioAX96, liquidity }),
  ).toBe(amount1)
  expect(() =>
    getAmount0Delta({ sqrtRatioAX96: 0n, sqrtRatioBX96, liquidity }),
  ).toThrowErrorMatchingInlineSnapshot(`[RangeError: Square-root price 0 is not positive.]`)
})
