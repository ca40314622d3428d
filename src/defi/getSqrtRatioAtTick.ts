import { BaseError } from '../internal/errors.ts'

/** The tick range of Uniswap V3 (and V4) pools: prices 1.0001^tick within [2^-128, 2^128]. */
export const MIN_TICK = -887_272
export const MAX_TICK = 887_272

/** Pure: a tick the pools accept (MIN_TICK ≤ tick ≤ MAX_TICK). */
export const isTick = (tick: number) => tick >= MIN_TICK && tick <= MAX_TICK

const Q32 = 1n << 32n
const MAX_UINT256 = (1n << 256n) - 1n

/**
 * 1/√1.0001^(2^i) in Q128 for bit i of |tick|: the exact constants Uniswap's TickMath uses, so
 * that the rounding of every step (and of the result) is the same as on chain.
 */
const FACTORS: readonly bigint[] = [
  0xfffcb933bd6fad37aa2d162d1a594001n,
  0xfff97272373d413259a46990580e213an,
  0xfff2e50f5f656932ef12357cf3c7fdccn,
  0xffe5caca7e10e4e61c3624eaa0941cd0n,
  0xffcb9843d60f6159c9db58835c926644n,
  0xff973b41fa98c081472e6896dfb254c0n,
  0xff2ea16466c96a3843ec78b326b52861n,
  0xfe5dee046a99a2a811c461f1969c3053n,
  0xfcbe86c7900a88aedcffc83b479aa3a4n,
  0xf987a7253ac413176f2b074cf7815e54n,
  0xf3392b0822b70005940c7a398e4b70f3n,
  0xe7159475a2c29b7443b29c7fa6e889d9n,
  0xd097f3bdfd2022b8845ad8f792aa5825n,
  0xa9f746462d870fdf8a65dc1f90e061e5n,
  0x70d869a156d2a1b890bb3df62baf32f7n,
  0x31be135f97d08fd981231505542fcfa6n,
  0x9aa508b5b7a84e1c677de54f3e99bc9n,
  0x5d6af8dedb81196699c329225ee604n,
  0x2216e584f5fa1ea926041bedfe98n,
  0x48a170391f7dc42444e8fa2n,
]

/**
 * √(1.0001^tick) as a Q64.96 number, bit for bit what Uniswap V3's `TickMath` returns: the
 * product of the factors of |tick|'s bits in Q128 (each step rounded down), inverted for
 * positive ticks, then shifted to Q96 rounding up.
 */
export function getSqrtRatioAtTick(tick: number): bigint {
  if (!Number.isInteger(tick) || tick < MIN_TICK || tick > MAX_TICK)
    throw new BaseError(`Tick ${tick} is outside [${MIN_TICK}, ${MAX_TICK}].`)
  const abs = Math.abs(tick)
  let ratio = 1n << 128n
  for (const [bit, factor] of FACTORS.entries()) {
    if ((abs >> bit) & 1) ratio = (ratio * factor) >> 128n
  }
  if (tick > 0) ratio = MAX_UINT256 / ratio
  return (ratio >> 32n) + (ratio % Q32 === 0n ? 0n : 1n)
}
