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
 * `CALL_GAS_CAP` gas. Four or more go as few batched calls (`batchedCalls`: up to
 * `READS_PER_CALL` reads in one `eth_call`). A batched call that ran out of gas (reads that
 * burn theirs) leaves the reads after them unread: up to `BATCHED_ROUNDS` rounds take those in
 * new batched calls. The reads still unread then, and those that failed inside, go one call
 * each in JSON-RPC batches. A call that reverts or runs out of gas (or that the node refuses
 * for that call alone, or a block the node no longer has: the caller's last-block check drops
 * such a batch) gives `undefined`; transport failures throw after the client's retries.
 */
const GAS = toHex(CALL_GAS_CAP)

/**
 * Batched calls made for one `callContracts` at most: the first, and a new one for the reads
 * a call that ran out of gas left (bounded: reads that all burn their gas go one call each,
 * side by side, instead of one round after another).
 */
export const BATCHED_ROUNDS = 3

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
  const single: number[] = []
  let unread = calls.map((_, i) => i)
  for (let round = 0; round < BATCHED_ROUNDS && unread.length >= MIN_BATCHED; round++) {
    const asked = unread
    const batched = await batchedCalls({
      rpc,
      tag,
      calls: asked.map((i) => calls[i]!),
      gasEach: CALL_GAS_CAP,
      signal,
    })
    unread = []
    batched.forEach((answer, k) => {
      const i = asked[k]!
      // A read that failed inside is asked again alone: there it is a plain call from no one,
      // not a static call from the lent address, and must answer as it always did.
      if (answer === undefined) unread.push(i)
      else if (answer.ok) out[i] = answer.data
      else single.push(i)
    })
    // Nothing read: a node without state overrides, or a call that failed as a whole.
    if (unread.length === asked.length) break
  }
  single.push(...unread)
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
