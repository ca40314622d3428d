import { encodeFunctionData } from 'viem'
import { callContracts } from '../evm/read/callContracts.ts'
import type { RpcClient } from '../evm/rpc/createRpcClient.ts'
import type { Address, Hex } from '../evm/types.ts'
import { decodeResult } from './decodeResult.ts'
import { aaveV3PoolAbi } from './defiAbis.ts'

/** A token whose `POOL()` and `UNDERLYING_ASSET_ADDRESS()` answered addresses. */
export type AaveTokenProbe = { token: Address; pool: Address; underlying: Address }

export type AaveTokenKind = 'aave_v3_atoken' | 'aave_v3_vdebt'

/**
 * The second round of the Aave probe, in one batch at one block (by hash where given): a token
 * is an Aave V3 aToken or variable debt token when the pool it names lists it as such for its
 * underlying asset (`getReserveData`). The pool is not checked against config here: the API
 * values only tokens of the chain's configured pools, so a look-alike pool is stored but
 * never shown. Returns token → kind.
 */
export async function probeAaveTokens({
  rpc,
  blockNumber,
  blockHash,
  probes,
  signal,
}: {
  rpc: RpcClient
  blockNumber: bigint
  blockHash?: Hex | undefined
  probes: readonly AaveTokenProbe[]
  signal?: AbortSignal | undefined
}): Promise<Map<Address, AaveTokenKind>> {
  const found = new Map<Address, AaveTokenKind>()
  if (probes.length === 0) return found
  const results = await callContracts({
    rpc,
    blockNumber,
    blockHash,
    calls: probes.map((p) => ({
      to: p.pool,
      data: encodeFunctionData({
        abi: aaveV3PoolAbi,
        functionName: 'getReserveData',
        args: [p.underlying],
      }),
    })),
    ...(signal ? { signal } : {}),
  })
  for (const [i, p] of probes.entries()) {
    const reserve = decodeResult({
      abi: aaveV3PoolAbi,
      functionName: 'getReserveData',
      data: results[i],
    })
    if (!reserve) continue
    const [, , , , , , , , aToken, , variableDebt] = reserve
    if (aToken.toLowerCase() === p.token) found.set(p.token, 'aave_v3_atoken')
    else if (variableDebt.toLowerCase() === p.token) found.set(p.token, 'aave_v3_vdebt')
  }
  return found
}
