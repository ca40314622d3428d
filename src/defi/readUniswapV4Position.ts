import { encodeFunctionData, numberToHex } from 'viem'
import type { Address } from '../evm/types.ts'
import { decodeResult } from './decodeResult.ts'
import { uniswapV4PositionManagerAbi, uniswapV4StateViewAbi } from './defiAbis.ts'
import { isTick } from './getSqrtRatioAtTick.ts'
import { getV3PrincipalAmounts } from './getV3PrincipalAmounts.ts'
import { getV3UncollectedFees } from './getV3UncollectedFees.ts'
import { getV4PoolId } from './getV4PoolId.ts'
import type { DefiCandidate, PositionRead } from './types.ts'

/**
 * Values a Uniswap V4 position NFT with V3's arithmetic (V4 pools keep V3's ticks, liquidity
 * and fee growth): principal as a full decrease pays it, fees earned since the position was
 * last touched. Round 1: the PositionManager's `ownerOf` and `getPoolAndPositionInfo` (pool key,
 * ticks packed in the info word); round 2: the StateView's slot0, fee growth inside the range
 * and the position (liquidity and fee growth when last touched; the PositionManager owns it,
 * salted with the token id). Hooks with return deltas can change what a withdrawal pays; the
 * core's numbers are what an ordinary pool pays.
 */
export function* readUniswapV4Position(
  candidate: Extract<DefiCandidate, { type: 'uniswap_v4' }>,
): PositionRead {
  const { owner, manager, tokenId } = candidate
  const r1 = yield [
    {
      to: manager.positionManager,
      data: encodeFunctionData({
        abi: uniswapV4PositionManagerAbi,
        functionName: 'getPoolAndPositionInfo',
        args: [tokenId],
      }),
    },
    {
      to: manager.positionManager,
      data: encodeFunctionData({
        abi: uniswapV4PositionManagerAbi,
        functionName: 'ownerOf',
        args: [tokenId],
      }),
    },
  ]
  const found = decodeResult({
    abi: uniswapV4PositionManagerAbi,
    functionName: 'getPoolAndPositionInfo',
    data: r1[0],
  })
  const holder = decodeResult({
    abi: uniswapV4PositionManagerAbi,
    functionName: 'ownerOf',
    data: r1[1],
  })
  if (found === undefined || holder === undefined) return { ok: false, reason: 'read_failed' }
  if (holder.toLowerCase() !== owner.toLowerCase()) return { ok: false, reason: 'not_owner' }
  const [key, info] = found
  // PositionInfoLibrary: tickLower at bit 8, tickUpper at bit 32, 24 bits each, signed.
  const tickLower = Number(BigInt.asIntN(24, info >> 8n))
  const tickUpper = Number(BigInt.asIntN(24, info >> 32n))
  if (!isTick(tickLower) || !isTick(tickUpper) || tickLower >= tickUpper)
    return { ok: false, reason: 'out_of_range' }
  const poolKey = {
    currency0: key.currency0.toLowerCase() as Address,
    currency1: key.currency1.toLowerCase() as Address,
    fee: key.fee,
    tickSpacing: key.tickSpacing,
    hooks: key.hooks.toLowerCase() as Address,
  }
  const poolId = getV4PoolId(poolKey)
  const view = manager.stateView
  const state = (data: `0x${string}`) => ({ to: view, data })
  const r2 = yield [
    state(
      encodeFunctionData({ abi: uniswapV4StateViewAbi, functionName: 'getSlot0', args: [poolId] }),
    ),
    state(
      encodeFunctionData({
        abi: uniswapV4StateViewAbi,
        functionName: 'getFeeGrowthInside',
        args: [poolId, tickLower, tickUpper],
      }),
    ),
    state(
      encodeFunctionData({
        abi: uniswapV4StateViewAbi,
        functionName: 'getPositionInfo',
        args: [
          poolId,
          manager.positionManager,
          tickLower,
          tickUpper,
          numberToHex(tokenId, { size: 32 }),
        ],
      }),
    ),
  ]
  const slot0 = decodeResult({ abi: uniswapV4StateViewAbi, functionName: 'getSlot0', data: r2[0] })
  const inside = decodeResult({
    abi: uniswapV4StateViewAbi,
    functionName: 'getFeeGrowthInside',
    data: r2[1],
  })
  const position = decodeResult({
    abi: uniswapV4StateViewAbi,
    functionName: 'getPositionInfo',
    data: r2[2],
  })
  if (slot0 === undefined || inside === undefined || position === undefined)
    return { ok: false, reason: 'read_failed' }
  const [sqrtPriceX96, tick] = slot0
  if (sqrtPriceX96 === 0n || !isTick(tick)) return { ok: false, reason: 'out_of_range' }
  const [liquidity, last0, last1] = position
  const { amount0, amount1 } = getV3PrincipalAmounts({
    liquidity,
    sqrtPriceX96,
    tick,
    tickLower,
    tickUpper,
  })
  const fees = (insideX128: bigint, lastX128: bigint) =>
    getV3UncollectedFees({
      liquidity,
      feeGrowthInsideX128: insideX128,
      feeGrowthInsideLastX128: lastX128,
      tokensOwed: 0n,
    })
  return {
    ok: true,
    position: {
      type: 'uniswap_v4',
      owner,
      manager: manager.positionManager,
      poolManager: manager.poolManager,
      tokenId,
      poolId,
      token0: poolKey.currency0,
      token1: poolKey.currency1,
      fee: poolKey.fee,
      hooks: poolKey.hooks,
      tickLower,
      tickUpper,
      liquidity,
      inRange: tickLower <= tick && tick < tickUpper,
      amount0,
      amount1,
      fees0: fees(inside[0], last0),
      fees1: fees(inside[1], last1),
    },
  }
}
