import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { DialectCaps } from '../dialect.ts'

/**
 * Hashes, calldata and log topics and data as bytes instead of `0x` hex text, half the size:
 * `transactions.hash`, `block_hash` and `input`; `logs.topics` (the 32-byte topics one after
 * another, was a JSON array) and `logs.data`. SQLite rebuilds both tables (new table, copy,
 * drop, rename) in one transaction; PostgreSQL changes the column types in place (in the
 * migration's transaction). Released: never edit.
 */
export async function up(db: Kysely<unknown>, caps: DialectCaps): Promise<void> {
  if (caps.name === 'postgres') return alterPostgres(db)
  return rebuildSqlite(db, caps)
}

/** `["0xaa…","0xbb…"]` as the hex digits of the topics one after another. */
const topicDigits = (topics: RawBuilder<unknown>) =>
  sql`replace(replace(replace(replace(replace(${topics}, '[', ''), ']', ''), '"', ''), ',', ''), '0x', '')`

async function alterPostgres(db: Kysely<unknown>): Promise<void> {
  const bytes = (column: string) => sql`decode(substr(${sql.ref(column)}, 3), 'hex')`
  await sql`alter table transactions
    alter column hash type bytea using ${bytes('hash')},
    alter column block_hash type bytea using ${bytes('block_hash')},
    alter column input type bytea using ${bytes('input')}`.execute(db)
  await sql`alter table logs
    alter column topics type bytea using decode(${topicDigits(sql.ref('topics'))}, 'hex'),
    alter column data type bytea using ${bytes('data')}`.execute(db)
}

async function rebuildSqlite(db: Kysely<unknown>, caps: DialectCaps): Promise<void> {
  const int = caps.intType
  const u256 = caps.u256Type
  const bytes = caps.bytesType
  const unhex = (column: string) => sql`unhex(substr(${sql.ref(column)}, 3))`

  await db.schema
    .createTable('transactions_0014')
    .addColumn('chain_id', int, (c) => c.notNull())
    .addColumn('block_number', int, (c) => c.notNull())
    .addColumn('tx_index', int, (c) => c.notNull())
    .addColumn('hash', bytes, (c) => c.notNull())
    .addColumn('block_hash', bytes, (c) => c.notNull())
    .addColumn('block_time', int, (c) => c.notNull())
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text')
    .addColumn('contract_address', 'text')
    .addColumn('value', u256, (c) => c.notNull())
    .addColumn('nonce', int, (c) => c.notNull())
    .addColumn('gas_price', u256, (c) => c.notNull())
    .addColumn('gas_used', u256, (c) => c.notNull())
    .addColumn('tx_type', int, (c) => c.notNull())
    .addColumn('input', bytes, (c) => c.notNull())
    .addColumn('success', int, (c) => c.notNull())
    .addPrimaryKeyConstraint('transactions_pk', ['chain_id', 'block_number', 'tx_index'])
    .execute()
  await sql`
    insert into transactions_0014 (chain_id, block_number, tx_index, hash, block_hash,
      block_time, from_address, to_address, contract_address, value, nonce, gas_price, gas_used,
      tx_type, input, success)
    select chain_id, block_number, tx_index, ${unhex('hash')}, ${unhex('block_hash')},
      block_time, from_address, to_address, contract_address, value, nonce, gas_price, gas_used,
      tx_type, ${unhex('input')}, success
    from transactions
  `.execute(db)
  await db.schema.dropTable('transactions').execute()
  await db.schema.alterTable('transactions_0014').renameTo('transactions').execute()

  await db.schema
    .createTable('logs_0014')
    .addColumn('chain_id', int, (c) => c.notNull())
    .addColumn('block_number', int, (c) => c.notNull())
    .addColumn('tx_index', int, (c) => c.notNull())
    .addColumn('log_index', int, (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('topics', bytes, (c) => c.notNull())
    .addColumn('data', bytes, (c) => c.notNull())
    .addPrimaryKeyConstraint('logs_by_tx_pk', ['chain_id', 'block_number', 'tx_index', 'log_index'])
    .modifyEnd(sql`without rowid`)
    .execute()
  await sql`
    insert into logs_0014 (chain_id, block_number, tx_index, log_index, address, topics, data)
    select chain_id, block_number, tx_index, log_index, address,
      unhex(${topicDigits(sql.ref('topics'))}), ${unhex('data')}
    from logs
  `.execute(db)
  await db.schema.dropTable('logs').execute()
  await db.schema.alterTable('logs_0014').renameTo('logs').execute()
}
