/**
 * Token1 held by `liquidity` between two square-root prices (Q64.96, either order), rounded
 * down as when liquidity leaves a pool: L·(√b − √a) / 2^96, floored.
 */
export function getAmount1Delta({
  sqrtRatioAX96,
  sqrtRatioBX96,
  liquidity,
}: {
  sqrtRatioAX96: bigint
  sqrtRatioBX96: bigint
  liquidity: bigint
}): bigint {
  const diff =
    sqrtRatioAX96 <= sqrtRatioBX96 ? sqrtRatioBX96 - sqrtRatioAX96 : sqrtRatioAX96 - sqrtRatioBX96
  return (liquidity * diff) >> 96n
}
