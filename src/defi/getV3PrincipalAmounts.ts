import { getAmount0Delta } from './getAmount0Delta.ts'
import { getAmount1Delta } from './getAmount1Delta.ts'
import { getSqrtRatioAtTick } from './getSqrtRatioAtTick.ts'

/**
 * The tokens a Uniswap V3 pool pays for burning `liquidity` of a position (what
 * `decreaseLiquidity` returns), rounded down. The branch follows the pool's current tick, not
 * its price, as the pool does: after a downward swap that stops exactly on a tick's price the
 * tick is one below it.
 */
export function getV3PrincipalAmounts({
  liquidity,
  sqrtPriceX96,
  tick,
  tickLower,
  tickUpper,
}: {
  liquidity: bigint
  /** `slot0().sqrtPriceX96`. */
  sqrtPriceX96: bigint
  /** `slot0().tick`. */
  tick: number
  tickLower: number
  tickUpper: number
}): { amount0: bigint; amount1: bigint } {
  const sqrtLower = getSqrtRatioAtTick(tickLower)
  const sqrtUpper = getSqrtRatioAtTick(tickUpper)
  if (tick < tickLower)
    return {
      amount0: getAmount0Delta({ sqrtRatioAX96: sqrtLower, sqrtRatioBX96: sqrtUpper, liquidity }),
      amount1: 0n,
    }
  if (tick < tickUpper)
    return {
      amount0: getAmount0Delta({
        sqrtRatioAX96: sqrtPriceX96,
        sqrtRatioBX96: sqrtUpper,
        liquidity,
      }),
      amount1: getAmount1Delta({
        sqrtRatioAX96: sqrtLower,
        sqrtRatioBX96: sqrtPriceX96,
        liquidity,
      }),
    }
  return {
    amount0: 0n,
    amount1: getAmount1Delta({ sqrtRatioAX96: sqrtLower, sqrtRatioBX96: sqrtUpper, liquidity }),
  }
}
