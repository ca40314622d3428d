import { encodeFunctionData } from 'viem'
import type { Address } from '../evm/types.ts'
import { decodeResult } from './decodeResult.ts'
import { uniswapV3PoolAbi, uniswapV3PositionManagerAbi } from './defiAbis.ts'
import { isTick } from './getSqrtRatioAtTick.ts'
import { getV3FeeGrowthInside } from './getV3FeeGrowthInside.ts'
import { getV3PoolAddress } from './getV3PoolAddress.ts'
import { getV3PrincipalAmounts } from './getV3PrincipalAmounts.ts'
import { getV3UncollectedFees } from './getV3UncollectedFees.ts'
import type { DefiCandidate, PositionRead } from './types.ts'

const SLOT0 = encodeFunctionData({ abi: uniswapV3PoolAbi, functionName: 'slot0' })
const GLOBAL0 = encodeFunctionData({ abi: uniswapV3PoolAbi, functionName: 'feeGrowthGlobal0X128' })
const GLOBAL1 = encodeFunctionData({ abi: uniswapV3PoolAbi, functionName: 'feeGrowthGlobal1X128' })
const ticks = (tick: number) =>
  encodeFunctionData({ abi: uniswapV3PoolAbi, functionName: 'ticks', args: [tick] })

/**
 * Values a Uniswap V3 position NFT: principal as a full decrease pays it, fees as `collect`
 * pays them. Round 1: the manager's `positions` and `ownerOf`; round 2: the pool's slot0,
 * global fee growth and both ticks (the pool address is derived, not read).
 */
export function* readUniswapV3Position(
  candidate: Extract<DefiCandidate, { type: 'uniswap_v3' }>,
): PositionRead {
  const { owner, manager, tokenId } = candidate
  const r1 = yield [
    {
      to: manager.address,
      data: encodeFunctionData({
        abi: uniswapV3PositionManagerAbi,
        functionName: 'positions',
        args: [tokenId],
      }),
    },
    {
      to: manager.address,
      data: encodeFunctionData({
        abi: uniswapV3PositionManagerAbi,
        functionName: 'ownerOf',
        args: [tokenId],
      }),
    },
  ]
  const position = decodeResult({
    abi: uniswapV3PositionManagerAbi,
    functionName: 'positions',
    data: r1[0],
  })
  const holder = decodeResult({
    abi: uniswapV3PositionManagerAbi,
    functionName: 'ownerOf',
    data: r1[1],
  })
  if (position === undefined || holder === undefined) return { ok: false, reason: 'read_failed' }
  if (holder.toLowerCase() !== owner.toLowerCase()) return { ok: false, reason: 'not_owner' }
  const [, , token0Raw, token1Raw, fee, tickLower, tickUpper, liquidity] = position
  const [, , , , , , , , insideLast0, insideLast1, tokensOwed0, tokensOwed1] = position
  if (!isTick(tickLower) || !isTick(tickUpper) || tickLower >= tickUpper)
    return { ok: false, reason: 'out_of_range' }
  const token0 = token0Raw.toLowerCase() as Address
  const token1 = token1Raw.toLowerCase() as Address
  const pool = getV3PoolAddress({
    poolDeployer: manager.poolDeployer,
    poolInitCodeHash: manager.poolInitCodeHash,
    token0,
    token1,
    fee,
  })

  const r2 = yield [
    { to: pool, data: SLOT0 },
    { to: pool, data: GLOBAL0 },
    { to: pool, data: GLOBAL1 },
    { to: pool, data: ticks(tickLower) },
    { to: pool, data: ticks(tickUpper) },
  ]
  const slot0 = decodeResult({ abi: uniswapV3PoolAbi, functionName: 'slot0', data: r2[0] })
  const global0 = decodeResult({
    abi: uniswapV3PoolAbi,
    functionName: 'feeGrowthGlobal0X128',
    data: r2[1],
  })
  const global1 = decodeResult({
    abi: uniswapV3PoolAbi,
    functionName: 'feeGrowthGlobal1X128',
    data: r2[2],
  })
  const lower = decodeResult({ abi: uniswapV3PoolAbi, functionName: 'ticks', data: r2[3] })
  const upper = decodeResult({ abi: uniswapV3PoolAbi, functionName: 'ticks', data: r2[4] })
  if (
    slot0 === undefined ||
    global0 === undefined ||
    global1 === undefined ||
    lower === undefined ||
    upper === undefined
  )
    return { ok: false, reason: 'read_failed' }
  const [sqrtPriceX96, tick] = slot0
  if (sqrtPriceX96 === 0n || !isTick(tick)) return { ok: false, reason: 'out_of_range' }

  const { amount0, amount1 } = getV3PrincipalAmounts({
    liquidity,
    sqrtPriceX96,
    tick,
    tickLower,
    tickUpper,
  })
  const range = { tick, tickLower, tickUpper }
  const inside0 = getV3FeeGrowthInside({
    ...range,
    feeGrowthGlobalX128: global0,
    feeGrowthOutsideLowerX128: lower[2],
    feeGrowthOutsideUpperX128: upper[2],
  })
  const inside1 = getV3FeeGrowthInside({
    ...range,
    feeGrowthGlobalX128: global1,
    feeGrowthOutsideLowerX128: lower[3],
    feeGrowthOutsideUpperX128: upper[3],
  })
  return {
    ok: true,
    position: {
      type: 'uniswap_v3',
      owner,
      manager: manager.address,
      tokenId,
      pool,
      token0,
      token1,
      fee,
      tickLower,
      tickUpper,
      liquidity,
      inRange: tickLower <= tick && tick < tickUpper,
      amount0,
      amount1,
      fees0: getV3UncollectedFees({
        liquidity,
        feeGrowthInsideX128: inside0,
        feeGrowthInsideLastX128: insideLast0,
        tokensOwed: tokensOwed0,
      }),
      fees1: getV3UncollectedFees({
        liquidity,
        feeGrowthInsideX128: inside1,
        feeGrowthInsideLastX128: insideLast1,
        tokensOwed: tokensOwed1,
      }),
    },
  }
}
