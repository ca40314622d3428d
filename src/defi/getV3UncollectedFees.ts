/**
 * What the NonfungiblePositionManager's `collect` pays for one token of a position: the
 * `tokensOwed` it already records (fees, and principal taken out by `decreaseLiquidity` but
 * not collected yet) plus the fees earned since its last update,
 * (inside − insideLast mod 2^256)·L / 2^128 rounded down. Both the new fees and the sum are
 * truncated to uint128, as the manager stores them.
 */
export function getV3UncollectedFees({
  liquidity,
  feeGrowthInsideX128,
  feeGrowthInsideLastX128,
  tokensOwed,
}: {
  liquidity: bigint
  /** From `getV3FeeGrowthInside` at the same block. */
  feeGrowthInsideX128: bigint
  /** The manager's `positions(id).feeGrowthInside{0,1}LastX128`. */
  feeGrowthInsideLastX128: bigint
  /** The manager's `positions(id).tokensOwed{0,1}`. */
  tokensOwed: bigint
}): bigint {
  const growth = BigInt.asUintN(256, feeGrowthInsideX128 - feeGrowthInsideLastX128)
  const earned = BigInt.asUintN(128, (growth * liquidity) >> 128n)
  return BigInt.asUintN(128, tokensOwed + earned)
}
