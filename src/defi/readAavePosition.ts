import { encodeFunctionData, maxUint256 } from 'viem'
import { decodeResult } from './decodeResult.ts'
import { aavePoolAbi, aaveTokenAbi } from './defiAbis.ts'
import type { DefiCandidate, PositionRead } from './types.ts'

/**
 * Values an Aave V2 or V3 aToken or variable debt token by the contracts' own answers, in one
 * round: the token's `balanceOf` (interest included, to the block's second) and
 * `scaledBalanceOf`, and the pool's `getUserAccountData` for the owner's health factor.
 */
export function* readAavePosition(
  candidate: Extract<DefiCandidate, { type: 'aave' }>,
): PositionRead {
  const { owner, token, pool } = candidate
  const [rBalance, rScaled, rAccount] = yield [
    {
      to: token,
      data: encodeFunctionData({ abi: aaveTokenAbi, functionName: 'balanceOf', args: [owner] }),
    },
    {
      to: token,
      data: encodeFunctionData({
        abi: aaveTokenAbi,
        functionName: 'scaledBalanceOf',
        args: [owner],
      }),
    },
    {
      to: pool,
      data: encodeFunctionData({
        abi: aavePoolAbi,
        functionName: 'getUserAccountData',
        args: [owner],
      }),
    },
  ]
  const balance = decodeResult({ abi: aaveTokenAbi, functionName: 'balanceOf', data: rBalance })
  const scaledBalance = decodeResult({
    abi: aaveTokenAbi,
    functionName: 'scaledBalanceOf',
    data: rScaled,
  })
  const account = decodeResult({
    abi: aavePoolAbi,
    functionName: 'getUserAccountData',
    data: rAccount,
  })
  if (balance === undefined || scaledBalance === undefined || account === undefined)
    return { ok: false, reason: 'read_failed' }
  const health = account[5]
  return {
    ok: true,
    position: {
      ...candidate,
      scaledBalance,
      balance,
      healthFactor: health === maxUint256 ? null : health,
    },
  }
}
