import { toHex } from 'viem'
import type { RpcClient } from '../rpc/createRpcClient.ts'
import type { Address, Hex } from '../types.ts'
import { batchedCalls, MIN_BATCHED } from './batchReads.ts'

export type ContractCall = { to: Address; data: Hex }

/**
 * Gas each call may use. Reads of tokens, pools and vaults need a few hundred thousand at
 * most; any contract can be deployed and touched, so one that spins must fail fast instead of
 * costing the node's whole call gas limit (geth's default 50M) per read.
 */
export const CALL_GAS_CAP = 5_000_000n

/**
 * `eth_call`s at one block; by `blockHash` (EIP-1898) where given, each with at most
 * `CALL_GAS_CAP` gas. Four or more go as few batched calls (`batchedCalls`: up to 200 reads in
 * one `eth_call`); the reads those did not answer, and those that failed in them, go one call
 * each in JSON-RPC batches. A call that reverts or runs out of gas (or that the node refuses
 * for that call alone, or a block the node no longer has: the caller's last-block check drops
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
  const out: (Hex | undefined)[] = calls.map(() => undefined)
  let single = calls.map((_, i) => i)
  if (calls.length >= MIN_BATCHED) {
    const batched = await batchedCalls({ rpc, tag, calls, gasEach: CALL_GAS_CAP, signal })
    single = []
    batched.forEach((answer, i) => {
      // A read that failed inside is asked again alone: there it is a plain call from no one,
      // not a static call from the lent address, and must answer as it always did.
      if (answer?.ok) out[i] = answer.data
      else single.push(i)
    })
  }
  if (single.length === 0) return out
  const results = await rpc.batch<Hex>(
    single.map((i) => ({
      method: 'eth_call',
      params: [{ to: calls[i]!.to, data: calls[i]!.data, gas: GAS }, tag],
    })),
    signal ? { signal } : {},
  )
  results.forEach((r, k) => {
    if (r.ok && typeof r.result === 'string') out[single[k]!] = r.result
  })
  return out
}
