import { toHex } from 'viem'
import type { RpcClient } from '../rpc/createRpcClient.ts'
import type { Address, Hex } from '../types.ts'

export type ContractCall = { to: Address; data: Hex }

/**
 * Gas each call may use. Reads of tokens, pools and vaults need a few hundred thousand at
 * most; any contract can be deployed and touched, so one that spins must fail fast instead of
 * costing the node's whole call gas limit (geth's default 50M) per read.
 */
export const CALL_GAS_CAP = 5_000_000n

/**
 * `eth_call`s at one block, batched; by `blockHash` (EIP-1898) where given, each with at most
 * `CALL_GAS_CAP` gas. A call that reverts or runs out of gas (or that the node refuses for
 * that call alone, or a block the node no longer has: the caller's last-block check drops
 * such a batch) gives `undefined`; transport failures throw after the client's retries.
 */
const GAS = toHex(CALL_GAS_CAP)

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
    calls.map((c) => ({
      method: 'eth_call',
      params: [{ to: c.to, data: c.data, gas: GAS }, tag],
    })),
    signal ? { signal } : {},
  )
  return results.map((r) => (r.ok && typeof r.result === 'string' ? r.result : undefined))
}
