import { toHex } from 'viem'
import { RetryableError } from '../../internal/errors.ts'
import type { RpcClient } from '../rpc/createRpcClient.ts'
import type { Address, Hex } from '../types.ts'
import { batchedCalls, MIN_BATCHED, nativeBalanceReads } from './batchReads.ts'
import { decodeBalances } from './batchReadsAbi.ts'

export type ContractCall = { to: Address; data: Hex }

/** A call's identity among reads of one block: the same key, the same answer. */
export const callKey = (call: ContractCall): string => `${call.to}|${call.data}`

/**
 * Answers read earlier at one block (`prefetchBatchReads`): calls by `callKey` (`undefined`:
 * reverted, as `readAtBlock` gives it), native balances by address.
 */
export type ReadyReads = {
  blockHash: Hex
  calls: Map<string, Hex | undefined>
  native: Map<Address, bigint>
}

/**
 * Gas each call may use. Reads of tokens, pools and vaults need a few hundred thousand at
 * most; any contract can be deployed and touched, so one that spins must fail fast instead of
 * costing the node's whole call gas limit (geth's default 50M) per read.
 */
export const CALL_GAS_CAP = 5_000_000n
const GAS = toHex(CALL_GAS_CAP)

/**
 * Batched calls made for one `readAtBlock` at most: the first, and a new one for the reads
 * a call that ran out of gas left (bounded: reads that all burn their gas go one call each,
 * side by side, instead of one round after another).
 */
export const BATCHED_ROUNDS = 3

/**
 * `eth_call`s and native balances at one block, by `blockHash` (EIP-1898) where given, each
 * call with at most `CALL_GAS_CAP` gas. Four or more reads go together as few batched calls
 * (`batchedCalls`: up to `READS_PER_CALL` reads in one `eth_call`, the balances of up to
 * `BALANCES_PER_CALL` addresses as one read): a node spends a cost of its own on each
 * `eth_call` (loading the block's state) beside its reads, and a hosted one bills each.
 * A batched call that ran out of gas (reads that burn theirs) leaves the reads after them
 * unread: up to `BATCHED_ROUNDS` rounds take those in new batched calls. Calls still unread
 * then, and those that failed inside, go one `eth_call` each in JSON-RPC batches; balances
 * not read, one `eth_getBalance` each. A call that reverts or runs out of gas (or that the
 * node refuses for that call alone, or a block the node no longer has: the caller's
 * last-block check drops such a batch) gives `undefined`; a balance the node cannot give, and
 * transport failures after the client's retries, throw. Reads found in `ready` (made earlier
 * at the same block) are answered from there and not asked again.
 */
export async function readAtBlock({
  rpc,
  blockNumber,
  blockHash,
  calls,
  native = [],
  ready,
  signal,
}: {
  rpc: RpcClient
  blockNumber: bigint
  blockHash?: Hex | undefined
  calls: readonly ContractCall[]
  native?: readonly Address[]
  /** Its answers count once it settles (a failed prefetch fails the read). */
  ready?: ReadyReads | Promise<ReadyReads> | undefined
  signal?: AbortSignal | undefined
}): Promise<{ results: (Hex | undefined)[]; native: Map<Address, bigint> }> {
  if (ready) {
    return readRest({ rpc, blockNumber, blockHash, calls, native, ready: await ready, signal })
  }
  const tag = blockHash ? { blockHash } : toHex(blockNumber)
  const results: (Hex | undefined)[] = calls.map(() => undefined)
  const balances = new Map<Address, bigint>()
  // The native balance reads follow the calls; they answer only inside a batched call.
  const balanceReads = nativeBalanceReads(native)
  const all = [...calls, ...balanceReads]
  /** The addresses of read `i` when it reads balances. */
  const addressesOf = (i: number) =>
    i < calls.length ? undefined : balanceReads[i - calls.length]?.addresses
  const size = (list: readonly number[]) =>
    list.reduce((n, i) => n + (addressesOf(i)?.length ?? 1), 0)
  const single: number[] = []
  const getBalance: Address[] = []
  let unread = all.map((_, i) => i)
  for (
    let round = 0;
    // Fewer reads than `MIN_BATCHED`: one call each is cheaper than the batched call.
    round < BATCHED_ROUNDS && unread.length > 0 && size(unread) >= MIN_BATCHED;
    round++
  ) {
    const asked = unread
    const batched = await batchedCalls({
      rpc,
      tag,
      calls: asked.map((i) => all[i]!),
      gasEach: CALL_GAS_CAP,
      signal,
    })
    unread = []
    batched.forEach((answer, k) => {
      const i = asked[k]!
      const addresses = addressesOf(i)
      if (answer === undefined) unread.push(i)
      else if (addresses) {
        const read = answer.ok ? decodeBalancesOrUndefined(answer.data) : undefined
        if (read?.length !== addresses.length) getBalance.push(...addresses)
        else for (const [n, a] of addresses.entries()) balances.set(a, read[n]!)
      }
      // A read that failed inside is asked again alone: there it is a plain call from no one,
      // not a static call from the lent address, and must answer as it always did.
      else if (answer.ok) results[i] = answer.data
      else single.push(i)
    })
    // Nothing read: a node without state overrides, or a call that failed as a whole.
    if (unread.length === asked.length) break
  }
  for (const i of unread) {
    const addresses = addressesOf(i)
    if (addresses) getBalance.push(...addresses)
    else single.push(i)
  }
  if (single.length + getBalance.length === 0) return { results, native: balances }
  const answers = await rpc.batch<Hex>(
    [
      ...single.map((i) => ({
        method: 'eth_call',
        params: [{ to: calls[i]!.to, data: calls[i]!.data, gas: GAS }, tag],
      })),
      ...getBalance.map((a) => ({ method: 'eth_getBalance', params: [a, tag] })),
    ],
    signal ? { signal } : {},
  )
  answers.forEach((r, k) => {
    if (k < single.length) {
      if (r.ok && typeof r.result === 'string') results[single[k]!] = r.result
      return
    }
    const address = getBalance[k - single.length]!
    if (!r.ok || typeof r.result !== 'string') {
      throw new RetryableError(
        `The node could not give the balance of ${address} at ${blockNumber}.`,
        r.ok ? {} : { details: r.error.shortMessage, cause: r.error },
      )
    }
    balances.set(address, BigInt(r.result))
  })
  return { results, native: balances }
}

/** `readAtBlock` of what `ready` does not answer, merged with what it does. */
async function readRest({
  ready,
  calls,
  native,
  ...at
}: {
  rpc: RpcClient
  blockNumber: bigint
  blockHash?: Hex | undefined
  calls: readonly ContractCall[]
  native: readonly Address[]
  ready: ReadyReads
  signal?: AbortSignal | undefined
}): Promise<{ results: (Hex | undefined)[]; native: Map<Address, bigint> }> {
  if (ready.blockHash !== at.blockHash) {
    throw new Error(`readAtBlock: reads of ${ready.blockHash} offered for ${at.blockHash}`)
  }
  const asked: number[] = []
  const results = calls.map((call, i) => {
    const key = callKey(call)
    if (ready.calls.has(key)) return ready.calls.get(key)
    asked.push(i)
    return undefined
  })
  const rest = await readAtBlock({
    ...at,
    calls: asked.map((i) => calls[i]!),
    native: native.filter((address) => !ready.native.has(address)),
  })
  for (const [k, i] of asked.entries()) results[i] = rest.results[k]
  for (const address of native) {
    const balance = ready.native.get(address)
    if (balance !== undefined) rest.native.set(address, balance)
  }
  return { results, native: rest.native }
}

function decodeBalancesOrUndefined(data: Hex): bigint[] | undefined {
  try {
    return decodeBalances(data)
  } catch {
    // Not our code's answer (a node that ignored the override): read these one by one.
    return undefined
  }
}
