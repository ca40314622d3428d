import { readIndexerHolders } from '../store/readIndexerHolders.ts'
import type { ApiContext } from './apiContext.ts'

const UNREACHABLE = Symbol('unreachable')

/**
 * Per served chain: the checkpoint, the node's head (this process's indexer, else what the
 * chain's active lock holder last reported: API replicas index nothing), the lag and why its
 * indexer stopped (this process's, else as the lock holder recorded it; null while it runs);
 * with a read replica also the replica's checkpoint and how many blocks it is behind the
 * primary (null while the replica does not answer).
 */
export async function readChainLags(
  ctx: Pick<ApiContext, 'store' | 'reads' | 'chains' | 'nodeHeads'>,
) {
  const heads = new Map(ctx.nodeHeads().map((h) => [h.chainId, h]))
  const holders = await readIndexerHolders(ctx.store)
  const replica = ctx.reads !== ctx.store
  return Promise.all(
    ctx.chains.map(async (chain) => {
      // A replica that does not answer leaves its lag unknown; the primary's answers stand.
      const [checkpoint, replicaCheckpoint] = await Promise.all([
        ctx.store.getCheckpoint(chain.chainId),
        replica
          ? ctx.reads.getCheckpoint(chain.chainId).catch((): typeof UNREACHABLE => UNREACHABLE)
          : undefined,
      ])
      const holder = holders.get(chain.chainId)
      const own = heads.get(chain.chainId)
      const head = own?.nodeHead ?? (holder?.active ? (holder.nodeHead ?? undefined) : undefined)
      const indexed = checkpoint?.blockNumber
      const lag = head !== undefined && indexed !== undefined ? Math.max(0, head - indexed) : null
      const replicaLag =
        !replica || replicaCheckpoint === UNREACHABLE
          ? null
          : Math.max(0, (indexed ?? 0) - (replicaCheckpoint?.blockNumber ?? 0))
      const stopped = own?.stopped ?? holder?.stopped ?? null
      return { chain, checkpoint, head, holder, lag, replicaLag, stopped }
    }),
  )
}
