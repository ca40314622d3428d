import { sql } from 'kysely'
import type { Store } from './createStore.ts'

/**
 * Seconds a PostgreSQL streaming replica is behind its primary: 0 once it has replayed all
 * it received (an idle primary sends nothing, so the age of the last replayed transaction
 * alone would grow forever), else the age of the last transaction it replayed. null when
 * the database is not a streaming standby (a logical replica or another primary): then only
 * the block lag per chain (checkpoints of both) tells.
 */
export async function readReplicaLag(store: Pick<Store, 'db'>): Promise<number | null> {
  const { rows } = await sql<{ standby: boolean; seconds: number | null }>`
    select pg_is_in_recovery() as standby,
      case
        when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
        else extract(epoch from now() - pg_last_xact_replay_timestamp())::float8
      end as seconds`.execute(store.db)
  const row = rows[0]
  if (!row?.standby) return null
  return row.seconds === null ? null : Math.max(0, Number(row.seconds))
}
