import type { RpcClient } from '../rpc/createRpcClient.ts'
import type { Address, Hex } from '../types.ts'
import { readAtBlock } from './readAtBlock.ts'

/**
 * Native balances of many addresses at one block, in few calls to the node: `readAtBlock`
 * without contract calls. Throws when the node cannot give one.
 */
export async function readNativeBalances({
  rpc,
  blockNumber,
  blockHash,
  addresses,
  signal,
}: {
  rpc: RpcClient
  blockNumber: bigint
  blockHash?: Hex | undefined
  addresses: readonly Address[]
  signal?: AbortSignal
}): Promise<Map<Address, bigint>> {
  if (addresses.length === 0) return new Map()
  return (await readAtBlock({ rpc, blockNumber, blockHash, calls: [], native: addresses, signal }))
    .native
}
