import type { Kysely } from 'kysely'
import type { DialectCaps } from '../dialect.ts'

/** DEX pools, token prices (current and hourly) and the swap side of activity items. */
export async function up(db: Kysely<unknown>, caps: DialectCaps): Promise<void> {
  const int = caps.intType
  const u256 = caps.u256Type

  // Every contract that emitted pool events, with what its factory says about it. Rows with
  // trusted = 0 are candidates no configured factory vouched for: kept so they are not
  // checked again, never used for prices.
  await db.schema
    .createTable('pools')
    .addColumn('chain_id', int, (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    /** uniswap_v2 | uniswap_v3 */
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('trusted', int, (c) => c.notNull())
    .addColumn('factory', 'text')
    .addColumn('token0', 'text')
    .addColumn('token1', 'text')
    .addColumn('fee', int)
    /** V2: reserves; V3: the pool's token balances. */
    .addColumn('reserve0', u256)
    .addColumn('reserve1', u256)
    .addColumn('sqrt_price_x96', u256)
    .addColumn('tick', int)
    .addColumn('liquidity', u256)
    .addColumn('block_number', int, (c) => c.notNull())
    .addPrimaryKeyConstraint('pools_pk', ['chain_id', 'address'])
    .execute()
  await db.schema
    .createIndex('pools_trusted')
    .on('pools')
    .columns(['chain_id', 'trusted'])
    .execute()

  await db.schema
    .createTable('token_prices')
    .addColumn('chain_id', int, (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('price_usd', 'double precision', (c) => c.notNull())
    /** The pool the price comes from; null for the USD anchor itself. */
    .addColumn('pool', 'text')
    .addColumn('pool_size_usd', 'double precision', (c) => c.notNull())
    .addColumn('block_number', int, (c) => c.notNull())
    .addColumn('block_time', int, (c) => c.notNull())
    .addPrimaryKeyConstraint('token_prices_pk', ['chain_id', 'token'])
    .execute()

  // The last price of each hour in which a token's price changed.
  await db.schema
    .createTable('token_price_hours')
    .addColumn('chain_id', int, (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    /** Start of the hour, unix seconds. */
    .addColumn('hour', int, (c) => c.notNull())
    .addColumn('price_usd', 'double precision', (c) => c.notNull())
    /** Block time of that price. */
    .addColumn('block_time', int, (c) => c.notNull())
    .addPrimaryKeyConstraint('token_price_hours_pk', ['chain_id', 'token', 'hour'])
    .execute()

  // Swap items: token_address/value are the side the wallet gave, these the side it got
  // (null token = the native asset). value_usd: the given side at the batch's prices.
  await db.schema.alterTable('activity').addColumn('to_token_address', 'text').execute()
  await db.schema.alterTable('activity').addColumn('to_value', u256).execute()
  await db.schema.alterTable('activity').addColumn('value_usd', 'double precision').execute()
}
