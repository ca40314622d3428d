import { type Kysely, sql } from 'kysely'
import type { DialectCaps } from '../dialect.ts'

/**
 * The three largest history tables on PostgreSQL, columns in a new order and positions within
 * a block as `integer`: PostgreSQL aligns each 8-byte column to 8 bytes and pads every row to
 * a multiple of 8, so `activity`'s wallet (21 bytes) before five `bigint`s, and
 * `transactions`' three `bigint`s after variable-length columns, each cost padding. Now the
 * 8-byte columns come first, then the 4- and 2-byte ones, then the variable-length ones;
 * `seq`, `tx_index` and `transfer_seq` (positions within one block) become `integer`, and
 * `transactions.tx_type` and `success` `smallint`. An activity row of a transfer item is 104
 * bytes instead of 120, a transfer 144 instead of 152 (`pg_column_size` 103 and 143 against
 * 120 and 151, before padding to 8), and in `bench:ingest`'s world a transaction 28 bytes
 * less (docs/indexer.md). Chain ids, block numbers and times stay `bigint` (chain ids above
 * 2^31 exist). Each table is copied in key order into a new one,
 * which then takes the old name, key and indexes (the copy and its indexes are built packed)
 * and is analyzed (the planner's statistics of the old table went with it). SQLite stores
 * integers in as few bytes as they need and does not align: nothing changes there. The
 * values read and written are the same (the row writer takes column types from the
 * catalogue, so the previous release's should too; not tried). Released: never edit.
 */
export async function up(db: Kysely<unknown>, caps: DialectCaps): Promise<void> {
  if (caps.name !== 'postgres') return
  await rebuild(db, {
    table: 'activity',
    columns: sql`
      chain_id bigint not null, block_number bigint not null, block_time bigint not null,
      value_usd double precision,
      seq integer not null, tx_index integer not null, transfer_seq integer,
      type text not null, asset_type text, address bytea not null,
      token_address bytea, from_address bytea, to_address bytea, value text collate "C",
      token_id text collate "C", spender bytea, function_selector text,
      to_token_address bytea, to_value text collate "C"`,
    names: [
      'chain_id',
      'block_number',
      'block_time',
      'value_usd',
      'seq',
      'tx_index',
      'transfer_seq',
      'type',
      'asset_type',
      'address',
      'token_address',
      'from_address',
      'to_address',
      'value',
      'token_id',
      'spender',
      'function_selector',
      'to_token_address',
      'to_value',
    ],
    key: {
      name: 'activity_by_time_pk',
      columns: sql`address, block_time, chain_id, block_number, seq`,
    },
  })
  await rebuild(db, {
    table: 'transfers',
    columns: sql`
      chain_id bigint not null, block_number bigint not null,
      seq integer not null, tx_index integer not null,
      kind text not null, token bytea, from_address bytea not null, to_address bytea not null,
      token_id text collate "C", value text collate "C" not null`,
    names: [
      'chain_id',
      'block_number',
      'seq',
      'tx_index',
      'kind',
      'token',
      'from_address',
      'to_address',
      'token_id',
      'value',
    ],
    key: { name: 'transfers_by_block_pk', columns: sql`chain_id, block_number, seq` },
  })
  // As 0012 made it: the planners use it only for queries that repeat the predicate.
  await sql`create index transfers_nft_by_token on transfers (chain_id, token)
    where kind in ('erc721', 'erc1155')`.execute(db)
  await rebuild(db, {
    table: 'transactions',
    columns: sql`
      chain_id bigint not null, block_number bigint not null, nonce bigint not null,
      tx_index integer not null, tx_type smallint not null, success smallint not null,
      hash bytea not null, from_address bytea not null, to_address bytea,
      contract_address bytea, value text collate "C" not null,
      gas_price text collate "C" not null, gas_used text collate "C" not null,
      input bytea not null, logs bytea not null`,
    names: [
      'chain_id',
      'block_number',
      'nonce',
      'tx_index',
      'tx_type',
      'success',
      'hash',
      'from_address',
      'to_address',
      'contract_address',
      'value',
      'gas_price',
      'gas_used',
      'input',
      'logs',
    ],
    key: { name: 'transactions_pk', columns: sql`chain_id, block_number, tx_index` },
  })
}

/** Copies `table` in key order into a table of the new layout, which takes its place. */
async function rebuild(
  db: Kysely<unknown>,
  {
    table,
    columns,
    names,
    key,
  }: {
    table: string
    columns: ReturnType<typeof sql>
    names: readonly string[]
    key: { name: string; columns: ReturnType<typeof sql> }
  },
): Promise<void> {
  const next = `${table}_0024`
  const list = sql.join(names.map((n) => sql.id(n)))
  await sql`create table ${sql.table(next)} (${columns})`.execute(db)
  await sql`insert into ${sql.table(next)} (${list})
    select ${list} from ${sql.table(table)} order by ${key.columns}`.execute(db)
  await sql`drop table ${sql.table(table)}`.execute(db)
  await sql`alter table ${sql.table(next)} rename to ${sql.table(table)}`.execute(db)
  await sql`alter table ${sql.table(table)} add constraint ${sql.id(key.name)}
    primary key (${key.columns})`.execute(db)
  // A new table has no statistics until autovacuum gets to it (never, where it is off).
  await sql`analyze ${sql.table(table)}`.execute(db)
}
