import { sql } from 'kysely'
import type { Store } from './createStore.ts'
import { HELD_ADVISORY_LOCKS, LEASE_APPLICATION, leaseKey } from './leaseKey.ts'

export type SilentHolder = { host: string; pid: number; silentSeconds: number }

/**
 * Ends the lock session of chain `chainId`'s holder when its last heartbeat
 * (`indexer_leases.node_head_at`, in the database's clock) is more than `afterSeconds` old: a
 * process that holds the lock but neither indexes nor reports (stopped by a signal, a paused
 * machine, a stalled event loop). The server releases the lock with the session; the holder's
 * fence refuses any write of it after that. Only an indexer's lock session is ended (by its
 * `application_name`): `scry reset-chain` holds the same lock without a heartbeat. Returns
 * whom it cut, or undefined (a holder that reports, no holder, no heartbeat yet). Needs the
 * right to end that session: the same database role, or `pg_signal_backend`.
 */
export async function endSilentHolder(
  store: Pick<Store, 'db'>,
  { chainId, afterSeconds }: { chainId: number; afterSeconds: number },
): Promise<SilentHolder | undefined> {
  const { rows } = await sql<{ host: string; pid: number; silent: number; ended: boolean }>`
    select r.host, r.pid, extract(epoch from now())::bigint - r.node_head_at as silent,
      pg_terminate_backend(l.pid) as ended
    from indexer_leases r
    join ${HELD_ADVISORY_LOCKS} l on l.key = ${leaseKey(chainId).toString()}::bigint
    -- An indexer's lock session, never \`scry reset-chain\`'s (which holds the same lock).
    join pg_stat_activity a on a.pid = l.pid and a.application_name = ${LEASE_APPLICATION}
    where r.chain_id = ${chainId} and r.node_head_at is not null
      and r.node_head_at < extract(epoch from now())::bigint - ${afterSeconds}`.execute(store.db)
  const row = rows.find((r) => r.ended)
  return row && { host: row.host, pid: Number(row.pid), silentSeconds: Number(row.silent) }
}
