import { type CreateTableBuilder, type Kysely, sql } from 'kysely'
import type { DialectCaps } from '../dialect.ts'

/**
 * History in less disk (issue 11), nothing the API serves lost:
 * - `activity` keeps neither the transaction's fields (hash, from, to, value: `transactions`
 *   has them) nor, for an item made of one transfer, the transfer's (token, from, to, value,
 *   token id: `transfer_seq` names the transfer). Existing rows are matched to their transfer.
 * - `activity` and `address_transactions` are keyed in the API's scan order (wallet, time,
 *   chain, block, position), which makes the separate `*_by_time` indexes redundant; `logs` is
 *   keyed (chain, block, tx, log), which makes `logs_tx` redundant.
 * - `transfers` loses `tx_hash` and `block_time` (the transaction's, never read from here).
 * - `transactions_hash` goes: no query looks a transaction up by hash.
 * - On SQLite `activity`, `address_transactions` and `logs` are stored in key order (`WITHOUT
 *   ROWID`): one b-tree, not a table and a copy of its key.
 * Tables are rebuilt (new table, copy, drop, rename), inside one transaction on both engines.
 * Released: never edit.
 */
export async function up(db: Kysely<unknown>, caps: DialectCaps): Promise<void> {
  const int = caps.intType
  const u256 = caps.u256Type
  const keyOrdered = <T extends string, C extends string>(t: CreateTableBuilder<T, C>) =>
    caps.name === 'sqlite' ? t.modifyEnd(sql`without rowid`) : t
  /** Same as SQL's `=`, but null equals null. */
  const same = (a: string, b: string) => sql.raw(`(${a} = ${b} or (${a} is null and ${b} is null))`)

  await keyOrdered(
    db.schema
      .createTable('activity_0012')
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('chain_id', int, (c) => c.notNull())
      .addColumn('block_number', int, (c) => c.notNull())
      .addColumn('seq', int, (c) => c.notNull())
      .addColumn('block_time', int, (c) => c.notNull())
      .addColumn('tx_index', int, (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('asset_type', 'text')
      .addColumn('transfer_seq', int)
      .addColumn('token_address', 'text')
      .addColumn('from_address', 'text')
      .addColumn('to_address', 'text')
      .addColumn('value', u256)
      .addColumn('token_id', u256)
      .addColumn('spender', 'text')
      .addColumn('function_selector', 'text')
      .addColumn('to_token_address', 'text')
      .addColumn('to_value', u256)
      .addColumn('value_usd', 'double precision')
      .addPrimaryKeyConstraint('activity_by_time_pk', [
        'address',
        'block_time',
        'chain_id',
        'block_number',
        'seq',
      ]),
  ).execute()
  await sql`
    insert into activity_0012 (address, chain_id, block_number, seq, block_time, tx_index, type,
      asset_type, transfer_seq, token_address, from_address, to_address, value, token_id,
      spender, function_selector, to_token_address, to_value, value_usd)
    select address, chain_id, block_number, seq, block_time, tx_index, type, asset_type, m,
      case when m is null then token_address end, case when m is null then from_address end,
      case when m is null then to_address end, case when m is null then value end,
      case when m is null then token_id end,
      spender, function_selector, to_token_address, to_value, value_usd
    from (
      select a.*, case when a.type in ('send', 'receive', 'mint', 'burn') then (
        select min(t.seq) from transfers t
        where t.chain_id = a.chain_id and t.block_number = a.block_number
          and t.tx_index = a.tx_index and t.from_address = a.from_address
          and t.to_address = a.to_address and t.value = a.value
          and ${same('t.token', 'a.token_address')} and ${same('t.token_id', 'a.token_id')}
      ) end as m
      from activity a
    ) x
  `.execute(db)
  await db.schema.dropTable('activity').execute()
  await db.schema.alterTable('activity_0012').renameTo('activity').execute()
  // Reorg undo deletes by (chain, block).
  await db.schema
    .createIndex('activity_block')
    .on('activity')
    .columns(['chain_id', 'block_number'])
    .execute()

  await keyOrdered(
    db.schema
      .createTable('address_transactions_0012')
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('block_time', int, (c) => c.notNull())
      .addColumn('chain_id', int, (c) => c.notNull())
      .addColumn('block_number', int, (c) => c.notNull())
      .addColumn('tx_index', int, (c) => c.notNull())
      .addPrimaryKeyConstraint('address_transactions_by_time_pk', [
        'address',
        'block_time',
        'chain_id',
        'block_number',
        'tx_index',
      ]),
  ).execute()
  await sql`
    insert into address_transactions_0012 (address, block_time, chain_id, block_number, tx_index)
    select address, block_time, chain_id, block_number, tx_index from address_transactions
  `.execute(db)
  await db.schema.dropTable('address_transactions').execute()
  await db.schema.alterTable('address_transactions_0012').renameTo('address_transactions').execute()
  await db.schema
    .createIndex('address_transactions_block')
    .on('address_transactions')
    .columns(['chain_id', 'block_number'])
    .execute()

  await keyOrdered(
    db.schema
      .createTable('logs_0012')
      .addColumn('chain_id', int, (c) => c.notNull())
      .addColumn('block_number', int, (c) => c.notNull())
      .addColumn('tx_index', int, (c) => c.notNull())
      .addColumn('log_index', int, (c) => c.notNull())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('topics', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('logs_by_tx_pk', [
        'chain_id',
        'block_number',
        'tx_index',
        'log_index',
      ]),
  ).execute()
  await sql`
    insert into logs_0012 (chain_id, block_number, tx_index, log_index, address, topics, data)
    select chain_id, block_number, tx_index, log_index, address, topics, data from logs
  `.execute(db)
  await db.schema.dropTable('logs').execute()
  await db.schema.alterTable('logs_0012').renameTo('logs').execute()

  // A rowid table on SQLite: stored in key order, the planner (without statistics) prefers a
  // range of the key on chain_id alone to the partial index below (EXPLAIN checked).
  await db.schema
    .createTable('transfers_0012')
    .addColumn('chain_id', int, (c) => c.notNull())
    .addColumn('block_number', int, (c) => c.notNull())
    .addColumn('seq', int, (c) => c.notNull())
    .addColumn('tx_index', int, (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('token', 'text')
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('token_id', u256)
    .addColumn('value', u256, (c) => c.notNull())
    .addPrimaryKeyConstraint('transfers_by_block_pk', ['chain_id', 'block_number', 'seq'])
    .execute()
  await sql`
    insert into transfers_0012 (chain_id, block_number, seq, tx_index, kind, token, from_address,
      to_address, token_id, value)
    select chain_id, block_number, seq, tx_index, kind, token, from_address, to_address,
      token_id, value from transfers
  `.execute(db)
  await db.schema.dropTable('transfers').execute()
  await db.schema.alterTable('transfers_0012').renameTo('transfers').execute()
  // A collection's NFT transfers (spam-score market features, `readCollectionMarket`): only
  // NFT rows, most transfers are ERC20 and native. Queries must repeat the predicate verbatim.
  await db.schema
    .createIndex('transfers_nft_by_token')
    .on('transfers')
    .columns(['chain_id', 'token'])
    .where(sql<boolean>`kind in ('erc721', 'erc1155')`)
    .execute()

  await db.schema.dropIndex('transactions_hash').execute()
}
