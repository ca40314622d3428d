import { toHex } from 'viem'
import { RetryableError } from '../../internal/errors.ts'
import type { RpcClient } from '../rpc/createRpcClient.ts'
import type { Address, Hex } from '../types.ts'

/**
 * `eth_getBalance` for many addresses at one block, batched; by `blockHash` (EIP-1898) where
 * given, so that a node that switched branches answers for our block or not at all.
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
  const tag = blockHash ? { blockHash } : toHex(blockNumber)
  const results = await rpc.batch<string>(
    addresses.map((a) => ({ method: 'eth_getBalance', params: [a, tag] })),
    signal ? { signal } : {},
  )
  const out = new Map<Address, bigint>()
  results.forEach((r, i) => {
    const address = addresses[i] as Address
    if (!r.ok || typeof r.result !== 'string') {
      throw new RetryableError(
        `The node could not give the balance of ${address} at ${blockNumber}.`,
        {
          ...(r.ok ? {} : { details: r.error.shortMessage, cause: r.error }),
        },
      )
    }
    out.set(address, BigInt(r.result))
  })
  return out
}
