import { type Kysely, sql } from 'kysely'
import type { DialectCaps } from '../dialect.ts'

/**
 * Prices relative to the route's parent token: `token_prices` and `token_price_hours` keep a
 * token's price in its parent's units (`parent`, `price`), and `token_prices` the pricing
 * pool's size in them too (`pool_size`), so a swap in a hub pool such as WETH/USDC rewrites
 * WETH's row, not the row and hourly point of every token priced through WETH. Readers
 * multiply up the parents (`resolvePrices`). Rows written before keep their USD values with
 * no parent, which reads the same; the indexer rewrites current prices relative at the first
 * batch that touches a pool (its price graph compares every price after a start). Previous
 * rows in `undo_log` get the new fields, so a revert restores them. `pool_size_usd` stays: the
 * USD size when the row was written, which token search ranks by. Released: never edit.
 */
export async function up(db: Kysely<unknown>, _caps: DialectCaps): Promise<void> {
  await db.schema.alterTable('token_prices').renameColumn('price_usd', 'price').execute()
  await db.schema.alterTable('token_prices').addColumn('parent', 'text').execute()
  await db.schema
    .alterTable('token_prices')
    .addColumn('pool_size', 'double precision', (c) => c.notNull().defaultTo(0))
    .execute()
  await sql`update token_prices set pool_size = pool_size_usd`.execute(db)
  await db.schema.alterTable('token_price_hours').renameColumn('price_usd', 'price').execute()
  await db.schema.alterTable('token_price_hours').addColumn('parent', 'text').execute()

  const entries = (
    await sql<{ id: number; table_name: string; prev: string }>`
    select id, table_name, prev from undo_log
    where table_name in ('token_prices', 'token_price_hours') and prev is not null
  `.execute(db)
  ).rows
  for (const entry of entries) {
    const { price_usd, ...rest } = JSON.parse(entry.prev) as Record<string, unknown>
    const prev =
      entry.table_name === 'token_prices'
        ? { ...rest, parent: null, price: price_usd, pool_size: rest.pool_size_usd }
        : { ...rest, parent: null, price: price_usd }
    await sql`update undo_log set prev = ${JSON.stringify(prev)} where id = ${entry.id}`.execute(db)
  }
}
