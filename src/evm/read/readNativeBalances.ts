import { toHex } from 'viem'
import { RetryableError } from '../../internal/errors.ts'
import type { RpcClient } from '../rpc/createRpcClient.ts'
import type { Address, Hex } from '../types.ts'
import { batchedBalances, MIN_BATCHED } from './batchReads.ts'

/**
 * Native balances of many addresses at one block; by `blockHash` (EIP-1898) where given, so
 * that a node that switched branches answers for our block or not at all. Four or more are
 * read in few batched calls (`batchedBalances`), the rest with `eth_getBalance` each.
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
  const out = new Map<Address, bigint>()
  let single: Address[] = [...addresses]
  if (addresses.length >= MIN_BATCHED) {
    const batched = await batchedBalances({ rpc, tag, addresses, signal })
    single = []
    batched.forEach((balance, i) => {
      const address = addresses[i] as Address
      if (balance === undefined) single.push(address)
      else out.set(address, balance)
    })
  }
  if (single.length === 0) return out
  const results = await rpc.batch<string>(
    single.map((a) => ({ method: 'eth_getBalance', params: [a, tag] })),
    signal ? { signal } : {},
  )
  results.forEach((r, i) => {
    const address = single[i] as Address
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
