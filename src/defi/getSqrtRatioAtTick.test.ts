import { expect, test } from 'vitest'
import { createPrng } from '../dev/createPrng.ts'
import { getSqrtRatioAtTick, MAX_TICK, MIN_TICK } from './getSqrtRatioAtTick.ts'

const Q96 = 2n ** 96n

test('default', () => {
  expect(getSqrtRatioAtTick(0)).toBe(Q96)
  // TickMath.MIN_SQRT_RATIO and MAX_SQRT_RATIO.
  expect(getSqrtRatioAtTick(MIN_TICK)).toBe(4295128739n)
  expect(getSqrtRatioAtTick(MAX_TICK)).toBe(1461446703485210103287273052203988822378723970342n)
})

test('behavior: √1.0001^tick, increasing', () => {
  const seed = Date.now() % 100_000
  const prng = createPrng(seed)
  for (let i = 0; i < 2000; i++) {
    const tick = prng.between(MIN_TICK, MAX_TICK - 1)
    const ratio = getSqrtRatioAtTick(tick)
    expect(getSqrtRatioAtTick(tick + 1), `seed ${seed} tick ${tick}`).toBeGreaterThan(ratio)
    // Doubles: 1.0001 ** t loses ~t ulps; exp(t/2 · log1p(1e-4)) stays within ~1e-11. Near
    // MIN_TICK the Q96 integer itself is only ~4e9, so allow a unit of rounding as well.
    const expected = Math.exp((tick / 2) * Math.log1p(1e-4)) * Number(Q96)
    const tolerance = expected * 1e-10 + 2
    expect(Math.abs(Number(ratio) - expected), `seed ${seed} tick ${tick}`).toBeLessThan(tolerance)
  }
})

test('error: tick out of range', () => {
  expect(() => getSqrtRatioAtTick(MAX_TICK + 1)).toThrowErrorMatchingInlineSnapshot(
    `[BaseError: Tick 887273 is outside [-887272, 887272].]`,
  )
  expect(() => getSqrtRatioAtTick(1.5)).toThrowErrorMatchingInlineSnapshot(
    `[BaseError: Tick 1.5 is outside [-887272, 887272].]`,
  )
})
