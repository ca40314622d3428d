import { callContracts } from '../evm/read/callContracts.ts'
import type { RpcClient } from '../evm/rpc/createRpcClient.ts'
import type { Address, Hex } from '../evm/types.ts'
import type { Store } from '../store/createStore.ts'
import { sleep } from '../utils/sleep.ts'
import { DEFI_PROBE_CALLS, probeDefiTokens } from './probeDefiTokens.ts'

/**
 * The one-time DeFi token probe of tokens stored before migrations 0011 (vaults) and 0016
 * (Aave tokens), listed in `defi_token_probes`; tokens first seen later are probed by their
 * batch. Pages through the list, asks `DEFI_PROBE_CALLS` and then `probeDefiTokens` at the
 * chain's checkpoint by block hash, and in one transaction records what it found in
 * `defi_tokens` and takes the page off the list,
 * so a restart goes on where it stopped. A page read at a block the node no longer has (a
 * reorg meanwhile) stays on the list for the next pass. Rows written here are not in the undo
 * log: they describe contracts that existed before the migration, and a batch that later sees
 * such a token as new writes its own row over them.
 */
export async function probeStoredTokens({
  store,
  rpc,
  chainId,
  pageSize = 200,
  signal,
}: {
  store: Pick<Store, 'db' | 'getCheckpoint'>
  rpc: RpcClient
  chainId: number
  pageSize?: number
  signal?: AbortSignal | undefined
}): Promise<{ probed: number; found: number }> {
  const { db } = store
  let probed = 0
  let defiTokens = 0
  while (!signal?.aborted) {
    const checkpoint = await store.getCheckpoint(chainId)
    if (!checkpoint) break
    const page = await db
      .selectFrom('defi_token_probes as p')
      .leftJoin('tokens as t', (j) =>
        j.onRef('t.chain_id', '=', 'p.chain_id').onRef('t.address', '=', 'p.address'),
      )
      .select(['p.address', 't.decimals'])
      .where('p.chain_id', '=', chainId)
      .orderBy('p.address')
      .limit(pageSize)
      .execute()
    if (page.length === 0) break
    const blockNumber = BigInt(checkpoint.blockNumber)
    const blockHash = checkpoint.blockHash as Hex
    const sig = signal ? { signal } : {}
    const n = DEFI_PROBE_CALLS.length
    const answers = await callContracts({
      rpc,
      blockNumber,
      blockHash,
      calls: page.flatMap((t) =>
        DEFI_PROBE_CALLS.map((data) => ({ to: t.address as Address, data })),
      ),
      ...sig,
    })
    const found = await probeDefiTokens({
      rpc,
      blockNumber,
      blockHash,
      tokens: page.map((t, i) => ({
        token: t.address as Address,
        decimals: t.decimals ?? undefined,
        answers: answers.slice(n * i, n * i + n),
      })),
      ...sig,
    })
    const still = await rpc.request<unknown>(
      { method: 'eth_getBlockByHash', params: [blockHash, false] },
      sig,
    )
    if (!still) {
      await sleep(1000, signal)
      continue
    }
    await db.transaction().execute(async (trx) => {
      if (found.size > 0)
        await trx
          .insertInto('defi_tokens')
          .values(
            [...found].map(([address, { kind, underlying, pool }]) => ({
              chain_id: chainId,
              address,
              kind,
              underlying,
              pool,
              block_number: checkpoint.blockNumber,
            })),
          )
          .onConflict((c) => c.columns(['chain_id', 'address']).doNothing())
          .execute()
      await trx
        .deleteFrom('defi_token_probes')
        .where('chain_id', '=', chainId)
        .where(
          'address',
          'in',
          page.map((t) => t.address),
        )
        .execute()
    })
    probed += page.length
    defiTokens += found.size
  }
  return { probed, found: defiTokens }
}
