import { encodeFunctionData, maxUint256 } from 'viem'
import { decodeResult } from './decodeResult.ts'
import { aaveV3PoolAbi, aaveV3TokenAbi } from './defiAbis.ts'
import type { DefiCandidate, PositionRead } from './types.ts'

/**
 * Values an Aave V3 aToken or variable debt token by the contracts' own answers, in one round:
 * the token's `balanceOf` (interest included, to the second) and `scaledBalanceOf`, and the
 * pool's `getUserAccountData` for the owner's health factor.
 */
export function* readAaveV3Position(
  candidate: Extract<DefiCandidate, { type: 'aave_v3' }>,
): PositionRead {
  const { owner, token, kind, pool, underlying } = candidate
  const [rBalance, rScaled, rAccount] = yield [
    {
      to: token,
      data: encodeFunctionData({ abi: aaveV3TokenAbi, functionName: 'balanceOf', args: [owner] }),
    },
    {
      to: token,
      data: encodeFunctionData({
        abi: aaveV3TokenAbi,
        functionName: 'scaledBalanceOf',
        args: [owner],
      }),
    },
    {
      to: pool,
      data: encodeFunctionData({
        abi: aaveV3PoolAbi,
        functionName: 'getUserAccountData',
        args: [owner],
      }),
    },
  ]
  const balance = decodeResult({ abi: aaveV3TokenAbi, functionName: 'balanceOf', data: rBalance })
  const scaledBalance = decodeResult({
    abi: aaveV3TokenAbi,
    functionName: 'scaledBalanceOf',
    data: rScaled,
  })
  const account = decodeResult({
    abi: aaveV3PoolAbi,
    functionName: 'getUserAccountData',
    data: rAccount,
  })
  if (balance === undefined || scaledBalance === undefined || account === undefined)
    return { ok: false, reason: 'read_failed' }
  const health = account[5]
  return {
    ok: true,
    position: {
      type: 'aave_v3',
      owner,
      token,
      kind,
      pool,
      underlying,
      scaledBalance,
      balance,
      healthFactor: health === maxUint256 ? null : health,
    },
  }
}
