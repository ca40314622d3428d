import { toHex } from 'viem'
import type { RpcClient } from '../rpc/createRpcClient.ts'
import type { Address, Hex } from '../types.ts'

export type ContractCall = { to: Address; data: Hex }

/**
 * `eth_call`s at one block, batched; by `blockHash` (EIP-1898) where given. A call that
 * reverts (or that the node refuses for that call alone, or a block the node no longer has:
 * the caller's last-block check drops such a batch) gives `undefined`; transport failures
 * throw after the client's retries.
 */
export async function callContracts({
  rpc,
  blockNumber,
  blockHash,
  calls,
  signal,
}: {
  rpc: RpcClient
  blockNumber: bigint
  blockHash?: Hex | undefined
  calls: readonly ContractCall[]
  signal?: AbortSignal
}): Promise<(Hex | undefined)[]> {
  if (calls.length === 0) return []
  const tag = blockHash ? { blockHash } : toHex(blockNumber)
  const results = await rpc.batch<Hex>(
    calls.map((c) => ({ method: 'eth_call', params: [{ to: c.to, data: c.data }, tag] })),
    signal ? { signal } : {},
  )
  return results.map((r) => (r.ok && typeof r.result === 'string' ? r.result : undefined))
}
