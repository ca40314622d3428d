import { sql } from 'kysely'
import type { Store } from './createStore.ts'

/**
 * Whether PostgreSQL's autovacuum runs (the server's `autovacuum` setting); undefined on
 * SQLite, which has none and needs none (its deleted and updated rows free their pages).
 * Without it, the old row versions (and index entries) of every balance, holder count and
 * undo entry the indexer updates or deletes are not cleaned up, and those tables keep growing.
 */
export async function readAutovacuum(
  store: Pick<Store, 'db' | 'dialect'>,
): Promise<boolean | undefined> {
  if (store.dialect !== 'postgres') return undefined
  const { rows } = await sql<{ setting: string }>`
    select setting from pg_settings where name = 'autovacuum'`.execute(store.db)
  return rows[0]?.setting === 'on'
}
