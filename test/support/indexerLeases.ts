import { sql } from 'kysely'
import type { Store } from '../../src/store/createStore.ts'
import { leaseKey } from '../../src/store/leaseKey.ts'
import { until } from './until.ts'

export type Lease = { owner: string; pid: number; chain_id: number }

/** The chain's `indexer_leases` row: who writes it now (owner token and pid). */
export const leaseOf = async (store: Store, chainId: number): Promise<Lease | undefined> =>
  (await store.db
    .selectFrom('indexer_leases')
    .select(['owner', 'pid', 'chain_id'])
    .where('chain_id', '=', chainId)
    .executeTakeFirst()) as Lease | undefined

/** Cuts the database session that holds the chain's advisory lock (`pg_terminate_backend`). */
export async function cutLockConnection(store: Store, chainId: number): Promise<void> {
  const key = leaseKey(chainId)
  await sql`select pg_terminate_backend(pid) from pg_locks
    where locktype = 'advisory' and granted
      and classid = ${Number(key >> 32n)} and objid = ${Number(key & 0xffffffffn)}`.execute(
    store.db,
  )
}

/**
 * Waits until process `pid` has a session on the database (`openDatabase` names each one
 * `scry pid <pid>`): a replacement indexer that far is migrated and about to stand by, so a
 * fault struck next has a standby to take over, however slowly the machine started it.
 */
export async function untilConnected(store: Store, pid: number, where: string): Promise<void> {
  await until({
    what: `pid ${pid} connected to the database`,
    where,
    read: async () => {
      const { rows } = await sql`select 1 from pg_stat_activity
        where application_name = ${`scry pid ${pid}`} limit 1`.execute(store.db)
      return rows.length > 0 || undefined
    },
  })
}
