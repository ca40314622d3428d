import { encodeFunctionData, size } from 'viem'
import { callContracts } from '../evm/read/callContracts.ts'
import type { RpcClient } from '../evm/rpc/createRpcClient.ts'
import type { Address, Hex } from '../evm/types.ts'
import type { DefiTokenKind } from '../store/schema.ts'
import { decodeResult } from './decodeResult.ts'
import { aaveV2ReserveAbi, aaveV3ReserveAbi } from './defiAbis.ts'

/** A token whose `POOL()` and `UNDERLYING_ASSET_ADDRESS()` answered addresses. */
export type AaveTokenProbe = { token: Address; pool: Address; underlying: Address }

export type AaveTokenKind = Extract<DefiTokenKind, `aave_${string}`>

/** Aave V2's `getReserveData` struct is 12 words; V3's (`ReserveDataLegacy` too) 15. */
const V2_RESERVE_BYTES = 12 * 32
const V3_RESERVE_BYTES = 15 * 32

/**
 * The second round of the Aave probe, in one batch at one block (by hash where given): a token
 * is an Aave aToken or variable debt token when the pool it names lists it as such for its
 * underlying asset (`getReserveData`). The answer's length tells the version: V2's
 * LendingPool answers 12 words, V3's Pool 15 or more, and each puts the token addresses in its
 * own words. The pool is not checked against config here: the API values only tokens of the
 * chain's configured pools of that version, so a look-alike pool is stored but never shown.
 * Returns token → kind.
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
        abi: aaveV3ReserveAbi,
        functionName: 'getReserveData',
        args: [p.underlying],
      }),
    })),
    ...(signal ? { signal } : {}),
  })
  for (const [i, p] of probes.entries()) {
    const reserve = reserveTokens(results[i])
    if (!reserve) continue
    const v = reserve.version
    if (reserve.aToken.toLowerCase() === p.token) found.set(p.token, `aave_v${v}_atoken`)
    else if (reserve.variableDebt.toLowerCase() === p.token) found.set(p.token, `aave_v${v}_vdebt`)
  }
  return found
}

/** Pure: the version and token addresses of a `getReserveData` answer, if it is one. */
function reserveTokens(
  data: Hex | undefined,
): { version: 2 | 3; aToken: Address; variableDebt: Address } | undefined {
  if (data === undefined) return undefined
  const bytes = size(data)
  if (bytes >= V3_RESERVE_BYTES) {
    const r = decodeResult({ abi: aaveV3ReserveAbi, functionName: 'getReserveData', data })
    return r && { version: 3, aToken: r[8], variableDebt: r[10] }
  }
  if (bytes === V2_RESERVE_BYTES) {
    const r = decodeResult({ abi: aaveV2ReserveAbi, functionName: 'getReserveData', data })
    return r && { version: 2, aToken: r[7], variableDebt: r[9] }
  }
  return undefined
}
