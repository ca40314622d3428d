import type { Hex, PublicClient } from 'viem'
import type { Store } from '../../src/store/createStore.ts'

/**
 * Waits until every store's checkpoint is the node's head block, by hash (a reorg to a branch
 * of the same height is caught), and returns that block. Throws after `timeoutMs`, naming
 * `label` (a soak's seed) so the run can be repeated.
 */
export async function storesAtHead({
  node,
  stores,
  chainId,
  label,
  timeoutMs = 60_000,
}: {
  node: Pick<PublicClient, 'getBlock'>
  stores: readonly Store[]
  chainId: number
  label: string
  timeoutMs?: number
}): Promise<{ number: bigint; hash: Hex }> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const head = await node.getBlock()
    let done = true
    for (const store of stores) {
      const cp = await store.getCheckpoint(chainId)
      if (cp?.blockHash !== head.hash) done = false
    }
    if (done) return { number: head.number, hash: head.hash }
    if (Date.now() > until) throw new Error(`${label}: stores did not reach ${head.number}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}
