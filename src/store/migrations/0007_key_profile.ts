import type { Kysely } from 'kysely'

/** Each API key may carry a response profile (docs/migrating.md); null = the server's default. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('profile', 'text').execute()
}
