import { toHex } from 'viem'
import type { RpcClient } from '../rpc/createRpcClient.ts'
import type { Address, Hex } from '../types.ts'
import { decodeReads, encodeBalances, encodeReads } from './batchReadsAbi.ts'
import { BATCH_READS_CODE } from './batchReadsCode.ts'

/** Where the reads code is lent for a call: an address no key or deployer can reach. */
const LENT_AT: Address = '0x5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c'
/** Gas of one batched call: geth's default RPC gas cap (nodes cap or refuse larger asks). */
const GAS = toHex(50_000_000n)
/** Gas kept for encoding the answers after the last read. */
const RESERVE = 2_000_000n
/**
 * Reads per batched call (a batch of 1,000 transactions reads ~1,000 balances and supplies). Each
 * `eth_call` has a cost of its own in the node beside its reads: anvil spends 10–15 ms of CPU
 * loading the state of a block more than ~100 blocks back, per call, so that 1,000 reads
 * at such a block cost it ~100 ms as five calls of 200 (bench/README.md, 2026-11-27). A
 * balance read costs a few thousand gas (`balanceOf` of an ERC20: ~3,000 as a call of its
 * own, plus the cold account and the loop inside): 1,000 fit several times into 50M.
 */
export const READS_PER_CALL = 1000
const BALANCES_PER_CALL = 1000
/** Fewer reads than this go one call each. */
export const MIN_BATCHED = 4

type Tag = Hex | { blockHash: Hex }

/**
 * Many reads at one block in few `eth_call`s: each lends `BatchReads.sol`'s code to an unused
 * address (a state override, the call's third parameter) and asks it to make up to
 * `READS_PER_CALL` static calls in the node (native balances are one such call to the lent
 * code itself: `nativeBalanceReads`). Where a node refuses
 * overrides, a batched call fails or stops early (gas), the answer is `undefined` for the
 * reads it did not make and the caller reads those one call each: the results are the same
 * either way, only the number of calls differs. A batched call that fails as a whole (after
 * the client's retries) sends the client's reads one call each for ten minutes. Inner calls
 * are static calls from the lent address (a single `eth_call` is a plain call from the zero
 * address): `readAtBlock` asks a read that failed inside again alone.
 */
export async function batchedCalls({
  rpc,
  tag,
  calls,
  gasEach,
  signal,
}: {
  rpc: RpcClient
  tag: Tag
  calls: readonly { to: Address; data: Hex }[]
  gasEach: bigint
  signal?: AbortSignal | undefined
}): Promise<({ ok: boolean; data: Hex } | undefined)[]> {
  const chunks = chunk(calls, READS_PER_CALL)
  const answers = await send({
    rpc,
    tag,
    signal,
    data: chunks.map((c) => encodeReads({ calls: c, gasEach, reserve: RESERVE })),
  })
  return chunks.flatMap((c, i) => {
    const out: ({ ok: boolean; data: Hex } | undefined)[] = c.map(() => undefined)
    const answer = answers[i]
    if (answer === undefined) return out
    try {
      const reads = decodeReads(answer)
      for (let k = 0; k < Math.min(reads.length, c.length); k++) out[k] = reads[k]
    } catch {
      // Not our code's answer (a node that ignored the override): read these one by one.
    }
    return out
  })
}

/**
 * Reads of native balances for `batchedCalls`: one call of the lent code's own `balances` per
 * `BALANCES_PER_CALL` addresses (a cold balance costs 2,600 gas: 1,000 fit in `CALL_GAS_CAP`).
 * They answer only inside a batched call, where the code is lent; `decodeBalances` reads the
 * answers.
 */
export function nativeBalanceReads(
  addresses: readonly Address[],
): { to: Address; data: Hex; addresses: readonly Address[] }[] {
  return chunk(addresses, BALANCES_PER_CALL).map((c) => ({
    to: LENT_AT,
    data: encodeBalances(c),
    addresses: c,
  }))
}

/**
 * Clients whose node failed a batched call as a whole (an error the client retried and gave up
 * on, e.g. a node that calls a third parameter an internal error): until then, one call each.
 */
const refusedUntil = new WeakMap<RpcClient, number>()
/** How long a client reads one call each after a batched call failed as a whole. */
const REFUSED_FOR_MS = 10 * 60_000

async function send({
  rpc,
  tag,
  data,
  signal,
}: {
  rpc: RpcClient
  tag: Tag
  data: Hex[]
  signal?: AbortSignal | undefined
}): Promise<(Hex | undefined)[]> {
  if ((refusedUntil.get(rpc) ?? 0) > Date.now()) return data.map(() => undefined)
  const override = { [LENT_AT]: { code: BATCH_READS_CODE } }
  try {
    const results = await rpc.batch<Hex>(
      data.map((d) => ({
        method: 'eth_call',
        params: [{ to: LENT_AT, data: d, gas: GAS }, tag, override],
      })),
      signal ? { signal } : {},
    )
    return results.map((r) => (r.ok && typeof r.result === 'string' ? r.result : undefined))
  } catch (error) {
    if (signal?.aborted) throw error
    // The one-call path asks the node again: if it is down, that fails as it always did.
    refusedUntil.set(rpc, Date.now() + REFUSED_FOR_MS)
    return data.map(() => undefined)
  }
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}
