import type { createPrng } from '../../src/dev/createPrng.ts'
import type { Store } from '../../src/store/createStore.ts'
import { cutLockConnection, type Lease, leaseOf } from './indexerLeases.ts'
import { until } from './until.ts'

export type IndexerFault = 'kill' | 'cut' | 'freeze'

/**
 * Strikes the chain's active indexer process once per fault: SIGKILL, its lock connection
 * cut, or SIGSTOP (it keeps its lock; a standby cuts it off once its heartbeat is older than
 * `--standby-takeover-seconds`, and it is sent SIGCONT after the takeover). Before each, the holder writes a random few blocks past the checkpoint (at most to
 * `lastBlock`) and a random moment passes; after each, waits for another owner in
 * `indexer_leases` (up to `ms`) and calls `after` (start a replacement, send transactions).
 * Returns the takeover times in ms and the last lease.
 */
export async function strikeIndexers({
  store,
  chainId,
  faults,
  prng,
  lastBlock,
  after,
  where,
  fateOf = (pid) => `pid ${pid}`,
  ms = 30_000,
}: {
  store: Store
  chainId: number
  faults: readonly IndexerFault[]
  prng: ReturnType<typeof createPrng>
  lastBlock: number
  after: (fault: IndexerFault) => Promise<void>
  where: string
  /** How the process of a pid ended (`scryProcesses().fateOf`), for a holder found gone. */
  fateOf?: (pid: number) => string
  ms?: number
}): Promise<{ takeovers: number[]; lease: Lease }> {
  let lease = await until({ what: 'a first holder', read: () => leaseOf(store, chainId), where })
  const takeovers: number[] = []
  for (const fault of faults) {
    const at = (await store.getCheckpoint(chainId))?.blockNumber ?? -1
    const target = Math.min(at + prng.between(1, 12), lastBlock)
    await until({
      what: 'progress before the fault',
      read: async () => ((await store.getCheckpoint(chainId))?.blockNumber ?? -1) >= target,
      where,
    })
    await new Promise((r) => setTimeout(r, prng.int(60)))
    // Between faults the holder never changes: a handover nobody caused is a failure.
    const current = await leaseOf(store, chainId)
    if (current?.owner !== lease.owner) {
      throw new Error(
        `${where}: the holder changed with no fault before the ${fault}: pid ${lease.pid} → ${current ? `pid ${current.pid}` : 'none'} (faults so far: ${faults.slice(0, takeovers.length).join(',')}; ${fateOf(lease.pid)})`,
      )
    }
    const struck = Date.now()
    // A holder that is gone already exited by itself: a failure of its own, not a fault's.
    try {
      process.kill(lease.pid, 0)
    } catch {
      throw new Error(
        `${where}: the chain's holder is gone before the ${fault}: ${fateOf(lease.pid)}`,
      )
    }
    if (fault === 'kill') process.kill(lease.pid, 'SIGKILL')
    else if (fault === 'freeze') process.kill(lease.pid, 'SIGSTOP')
    else await cutLockConnection(store, chainId)
    const struckPid = lease.pid
    const previous = lease.owner
    lease = await until({
      what: `a takeover after ${fault}`,
      read: async () => {
        const now = await leaseOf(store, chainId)
        return now && now.owner !== previous ? now : undefined
      },
      ms,
      where,
    })
    takeovers.push(Date.now() - struck)
    // Woken, it finds its lock gone and stands by (its writes refused, if it tries one).
    if (fault === 'freeze') process.kill(struckPid, 'SIGCONT')
    await after(fault)
  }
  return { takeovers, lease }
}
