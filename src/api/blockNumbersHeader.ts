import type { FastifyReply } from 'fastify'
import type { Store } from '../store/createStore.ts'

/**
 * `X-Scry-Block-Numbers: <chain>=<block>,…` on every EVM and SVM data answer: for each chain
 * the answer read, the block it was read at. EVM: the chain's indexed block (its checkpoint,
 * as `/v1/status` shows it), or the block asked for when the answer is read at a past block;
 * SVM: the node's slot (chain named `solana`/`eclipse`). Chains are listed in ascending id
 * order, SVM names after them; a chain not indexed yet is left out. Only 2xx answers carry it.
 */
export const BLOCK_NUMBERS_HEADER = 'X-Scry-Block-Numbers'

export const BLOCK_NUMBERS_DESCRIPTION =
  'The block each chain of the answer was read at: `<chain_id>=<block>` pairs, comma-separated (EVM: the indexed block, as /v1/status shows it, or the past block asked for; SVM: `solana=<slot>`).'

/** Blocks read per chain: numeric EVM chain ids, SVM chain names. */
export type ChainBlocks = ReadonlyMap<number | string, number>

export function formatBlockNumbers(blocks: ChainBlocks): string {
  const rank = (chain: number | string) => (typeof chain === 'number' ? 0 : 1)
  return [...blocks]
    .sort(([a], [b]) =>
      rank(a) !== rank(b)
        ? rank(a) - rank(b)
        : typeof a === 'number' && typeof b === 'number'
          ? a - b
          : String(a).localeCompare(String(b)),
    )
    .map(([chain, block]) => `${chain}=${block}`)
    .join(',')
}

/** Parses the header (clients, tests); malformed pairs are skipped. */
export function parseBlockNumbers(header: string | null | undefined): Map<string, number> {
  const out = new Map<string, number>()
  for (const pair of (header ?? '').split(',')) {
    const match = /^\s*([A-Za-z0-9_]+)=([0-9]+)\s*$/.exec(pair)
    if (match?.[1] && match[2]) out.set(match[1], Number(match[2]))
  }
  return out
}

/** Merges `blocks` into the answer's header (a route may read several chains in steps). */
export function setBlockNumbers(reply: FastifyReply, blocks: ChainBlocks): void {
  const merged = new Map<number | string, number>()
  for (const [chain, block] of parseBlockNumbers(headerOf(reply))) {
    merged.set(/^[0-9]+$/.test(chain) ? Number(chain) : chain, block)
  }
  for (const [chain, block] of blocks) merged.set(chain, block)
  reply.header(BLOCK_NUMBERS_HEADER, formatBlockNumbers(merged))
}

/** Per answer, the chains it asked for that have no indexed block (`markChainsRead`). */
const unindexed = new WeakMap<FastifyReply, number[]>()

/** Chains the answer asked for that had no indexed block yet (none: `[]`). */
export function unindexedChainsOf(reply: FastifyReply): readonly number[] {
  return unindexed.get(reply) ?? []
}

/** Notes chains the answer asked for that have no indexed block (for `warnChainStates`). */
export function markChainsUnindexed(reply: FastifyReply, chainIds: readonly number[]): void {
  if (chainIds.length > 0) unindexed.set(reply, [...unindexedChainsOf(reply), ...chainIds])
}

/**
 * Reads the indexed block of each EVM chain (one query) and puts them on the answer. Call it
 * once the chains are known, before reading the data: the answer is then at least as new as
 * the header says (a batch committed during the request may make it newer, never older).
 * Chains without one (`unindexedChainsOf`) are warned about (`warnChainStates`).
 */
export async function markChainsRead({
  store,
  reply,
  chainIds,
}: {
  store: Store
  reply: FastifyReply
  chainIds: readonly number[]
}): Promise<Map<number, number>> {
  const blocks = await readIndexedBlocks({ store, chainIds })
  setBlockNumbers(reply, blocks)
  markChainsUnindexed(
    reply,
    [...new Set(chainIds)].filter((chainId) => !blocks.has(chainId)),
  )
  return blocks
}

export async function readIndexedBlocks({
  store,
  chainIds,
}: {
  store: Pick<Store, 'db'>
  chainIds: readonly number[]
}): Promise<Map<number, number>> {
  const out = new Map<number, number>()
  if (chainIds.length === 0) return out
  const rows = await store.db
    .selectFrom('checkpoints')
    .select(['chain_id', 'block_number'])
    .where('chain_id', 'in', [...new Set(chainIds)])
    .execute()
  for (const r of rows) out.set(Number(r.chain_id), Number(r.block_number))
  return out
}

function headerOf(reply: FastifyReply): string | undefined {
  const value = reply.getHeader(BLOCK_NUMBERS_HEADER)
  return typeof value === 'string' ? value : undefined
}

/** Data routes: every GET under /v1/evm/ and /beta/ except subscriptions and supported chains. */
export function isDataRoute({ method, url }: { method: string; url: string }): boolean {
  if (method !== 'GET') return false
  if (!url.startsWith('/v1/evm/') && !url.startsWith('/beta/')) return false
  // Subscription management (both paths), the chain list and the DeFi protocol list read no
  // chain data.
  return (
    !url.startsWith('/v1/evm/subscriptions') &&
    !url.startsWith('/beta/evm/subscriptions') &&
    url !== '/v1/evm/supported-chains' &&
    url !== '/v1/evm/defi/supported-protocols'
  )
}
