import { sql } from 'kysely'
import type { Store } from './createStore.ts'
import { HELD_ADVISORY_LOCKS, leaseKey } from './leaseKey.ts'

export type IndexerHolder = {
  host: string
  pid: number
  /** Unix seconds when it took the chain. */
  since: number
  /** Whether its lock is held now (false: it died and no standby has taken over yet). */
  active: boolean
  /**
   * The node's head as the holder last reported it; null: not yet, or its last report is more
   * than `HEARTBEAT_STALE_SECONDS` old (a frozen holder keeps its lock but neither indexes nor
   * reports: its lag must read as unknown, not as the last one it reported).
   */
  nodeHead: number | null
  /** Why it stopped indexing the chain (a reorg past finality); null while it runs. */
  stopped: string | null
}

/** A holder's report older than this (seconds) no longer gives the node's head. */
export const HEARTBEAT_STALE_SECONDS = 60

/**
 * Which process writes each chain (PostgreSQL with standby indexers; SQLite has one process
 * and no rows): the last holder of each chain's lock and whether that lock is held now.
 */
export async function readIndexerHolders(
  store: Pick<Store, 'db' | 'dialect'>,
): Promise<Map<number, IndexerHolder>> {
  if (store.dialect !== 'postgres') return new Map()
  const rows = await store.db
    .selectFrom('indexer_leases')
    .selectAll()
    // The database's clock, as the heartbeat writes it: no skew between machines.
    .select(sql<number>`extract(epoch from now())::bigint`.as('now'))
    .execute()
  const locks = await sql<{ key: string }>`
    select key::text as key from ${HELD_ADVISORY_LOCKS} as l`.execute(store.db)
  const held = new Set(locks.rows.map((r) => r.key))
  return new Map(
    rows.map((r) => [
      Number(r.chain_id),
      {
        host: r.host,
        pid: Number(r.pid),
        since: Number(r.since),
        active: held.has(leaseKey(Number(r.chain_id)).toString()),
        nodeHead:
          r.node_head === null ||
          r.node_head_at === null ||
          Number(r.now) - Number(r.node_head_at) > HEARTBEAT_STALE_SECONDS
            ? null
            : Number(r.node_head),
        stopped: r.stopped ?? null,
      },
    ]),
  )
}
