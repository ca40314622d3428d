import type { RpcClient } from '../rpc/createRpcClient.ts'
import type { Hex } from '../types.ts'
import { type ContractCall, readAtBlock } from './readAtBlock.ts'

/** `eth_call`s at one block, in few calls to the node: `readAtBlock` without balances. */
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
  return (await readAtBlock({ rpc, blockNumber, blockHash, calls, signal })).results
}
