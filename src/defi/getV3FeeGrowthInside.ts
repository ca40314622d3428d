/**
 * Fee growth per unit of liquidity inside [tickLower, tickUpper) for one token, in Q128, as a
 * Uniswap V3 pool computes it: global − below − above, all modulo 2^256. The terms wrap by
 * design (a tick's `feeGrowthOutside` starts at the global value or at 0); only differences
 * of this value over time mean anything.
 */
export function getV3FeeGrowthInside({
  tick,
  tickLower,
  tickUpper,
  feeGrowthGlobalX128,
  feeGrowthOutsideLowerX128,
  feeGrowthOutsideUpperX128,
}: {
  /** `slot0().tick`. */
  tick: number
  tickLower: number
  tickUpper: number
  feeGrowthGlobalX128: bigint
  /** `ticks(tickLower).feeGrowthOutside{0,1}X128`. */
  feeGrowthOutsideLowerX128: bigint
  /** `ticks(tickUpper).feeGrowthOutside{0,1}X128`. */
  feeGrowthOutsideUpperX128: bigint
}): bigint {
  const below =
    tick >= tickLower
      ? feeGrowthOutsideLowerX128
      : BigInt.asUintN(256, feeGrowthGlobalX128 - feeGrowthOutsideLowerX128)
  const above =
    tick < tickUpper
      ? feeGrowthOutsideUpperX128
      : BigInt.asUintN(256, feeGrowthGlobalX128 - feeGrowthOutsideUpperX128)
  return BigInt.asUintN(256, feeGrowthGlobalX128 - below - above)
}
