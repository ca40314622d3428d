import type { Kysely } from 'kysely'
import type { DialectCaps } from '../dialect.ts'

/** The indexer's tables. Released: never edit, add a new migration instead. */
export async function up(db: Kysely<unknown>, caps: DialectCaps): Promise<void> {
  const int = caps.intType
  const u256 = caps.u256Type

  await db.schema
    .createTable('checkpoints')
    .addColumn('chain_id', int, (c) => c.primaryKey())
    .addColumn('block_number', int, (c) => c.notNull())
    .addColumn('block_hash', 'text', (c) => c.notNull())
    .addColumn('updated_at', int, (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('blocks')
    .addColumn('chain_id', int, (c) => c.notNull())
    .addColumn('number', int, (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('parent_hash', 'text', (c) => c.notNull())
    .addColumn('timestamp', int, (c) => c.notNull())
    .addColumn('miner', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('blocks_pk', ['chain_id', 'number'])
    .execute()

  await db.schema
    .createTable('transactions')
    .addColumn('chain_id', int, (c) => c.notNull())
    .addColumn('block_number', int, (c) => c.notNull())
    .addColumn('tx_index', int, (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('block_hash', 'text', (c) => c.notNull())
    .addColumn('block_time', int, (c) => c.notNull())
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text')
    .addColumn('contract_address', 'text')
    .addColumn('value', u256, (c) => c.notNull())
    .addColumn('nonce', int, (c) => c.notNull())
    .addColumn('gas_price', u256, (c) => c.notNull())
    .addColumn('gas_used', u256, (c) => c.notNull())
    .addColumn('tx_type', int, (c) => c.notNull())
    .addColumn('input', 'text', (c) => c.notNull())
    .addColumn('success', int, (c) => c.notNull())
    .addPrimaryKeyConstraint('transactions_pk', ['chain_id', 'block_number', 'tx_index'])
    .execute()
  await db.schema
    .createIndex('transactions_hash')
    .on('transactions')
    .columns(['chain_id', 'hash'])
    .execute()

  await db.schema
    .createTable('logs')
    .addColumn('chain_id', int, (c) => c.notNull())
    .addColumn('block_number', int, (c) => c.notNull())
    .addColumn('log_index', int, (c) => c.notNull())
    .addColumn('tx_index', int, (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('topics', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('logs_pk', ['chain_id', 'block_number', 'log_index'])
    .execute()
  // A transaction's logs: (chain, block, tx) prefix.
  await db.schema
    .createIndex('logs_tx')
    .on('logs')
    .columns(['chain_id', 'block_number', 'tx_index'])
    .execute()

  await db.schema
    .createTable('address_transactions')
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('chain_id', int, (c) => c.notNull())
    .addColumn('block_number', int, (c) => c.notNull())
    .addColumn('tx_index', int, (c) => c.notNull())
    .addColumn('block_time', int, (c) => c.notNull())
    .addPrimaryKeyConstraint('address_transactions_pk', [
      'address',
      'chain_id',
      'block_number',
      'tx_index',
    ])
    .execute()
  // Reorg undo deletes by (chain, block).
  await db.schema
    .createIndex('address_transactions_block')
    .on('address_transactions')
    .columns(['chain_id', 'block_number'])
    .execute()

  await db.schema
    .createTable('transfers')
    .addColumn('chain_id', int, (c) => c.notNull())
    .addColumn('block_number', int, (c) => c.notNull())
    .addColumn('seq', int, (c) => c.notNull())
    .addColumn('tx_index', int, (c) => c.notNull())
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('block_time', int, (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('token', 'text')
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('token_id', u256)
    .addColumn('value', u256, (c) => c.notNull())
    .addPrimaryKeyConstraint('transfers_pk', ['chain_id', 'block_number', 'seq'])
    .execute()

  await db.schema
    .createTable('activity')
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('chain_id', int, (c) => c.notNull())
    .addColumn('block_number', int, (c) => c.notNull())
    .addColumn('seq', int, (c) => c.notNull())
    .addColumn('block_time', int, (c) => c.notNull())
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('tx_index', int, (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('asset_type', 'text')
    .addColumn('token_address', 'text')
    .addColumn('from_address', 'text')
    .addColumn('to_address', 'text')
    .addColumn('value', u256)
    .addColumn('token_id', u256)
    .addColumn('spender', 'text')
    .addColumn('tx_from', 'text', (c) => c.notNull())
    .addColumn('tx_to', 'text')
    .addColumn('tx_value', u256, (c) => c.notNull())
    .addColumn('function_selector', 'text')
    .addPrimaryKeyConstraint('activity_pk', ['address', 'chain_id', 'block_number', 'seq'])
    .execute()
  await db.schema
    .createIndex('activity_block')
    .on('activity')
    .columns(['chain_id', 'block_number'])
    .execute()

  await db.schema
    .createTable('native_balances')
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('chain_id', int, (c) => c.notNull())
    .addColumn('balance', u256, (c) => c.notNull())
    .addColumn('block_number', int, (c) => c.notNull())
    .addPrimaryKeyConstraint('native_balances_pk', ['address', 'chain_id'])
    .execute()

  await db.schema
    .createTable('token_balances')
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('chain_id', int, (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('balance', u256, (c) => c.notNull())
    .addColumn('first_acquired_time', int)
    .addColumn('first_acquired_block', int)
    .addColumn('has_initiated_transfer', int, (c) => c.notNull())
    .addColumn('block_number', int, (c) => c.notNull())
    .addPrimaryKeyConstraint('token_balances_pk', ['address', 'chain_id', 'token'])
    .execute()
  // Token holders by balance, highest first, ties by address: an index range scan.
  await db.schema
    .createIndex('token_balances_holders')
    .on('token_balances')
    .columns(['chain_id', 'token', 'balance desc', 'address'])
    .execute()

  await db.schema
    .createTable('nft_holdings')
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('chain_id', int, (c) => c.notNull())
    .addColumn('contract', 'text', (c) => c.notNull())
    .addColumn('token_id', u256, (c) => c.notNull())
    .addColumn('standard', 'text', (c) => c.notNull())
    .addColumn('balance', u256, (c) => c.notNull())
    .addColumn('last_acquired_time', int, (c) => c.notNull())
    .addColumn('last_acquired_block', int, (c) => c.notNull())
    .addPrimaryKeyConstraint('nft_holdings_pk', ['address', 'chain_id', 'contract', 'token_id'])
    .execute()
  // Who holds a given NFT (ownerOf).
  await db.schema
    .createIndex('nft_holdings_token')
    .on('nft_holdings')
    .columns(['chain_id', 'contract', 'token_id'])
    .execute()

  await db.schema
    .createTable('tokens')
    .addColumn('chain_id', int, (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('standard', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('symbol', 'text')
    .addColumn('decimals', int)
    .addColumn('total_supply', u256)
    .addColumn('rebasing', int, (c) => c.notNull())
    .addColumn('first_block', int, (c) => c.notNull())
    .addColumn('block_number', int, (c) => c.notNull())
    .addPrimaryKeyConstraint('tokens_pk', ['chain_id', 'address'])
    .execute()

  await db.schema
    .createTable('approvals')
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('chain_id', int, (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('spender', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('allowance', u256, (c) => c.notNull())
    .addColumn('block_number', int, (c) => c.notNull())
    .addPrimaryKeyConstraint('approvals_pk', ['owner', 'chain_id', 'token', 'spender'])
    .execute()

  await db.schema
    .createTable('undo_log')
    .addColumn('id', caps.intType, caps.autoId)
    .addColumn('chain_id', int, (c) => c.notNull())
    .addColumn('from_block', int, (c) => c.notNull())
    .addColumn('to_block', int, (c) => c.notNull())
    .addColumn('table_name', 'text', (c) => c.notNull())
    .addColumn('row_key', 'text', (c) => c.notNull())
    .addColumn('prev', 'text')
    .execute()
  await db.schema
    .createIndex('undo_log_block')
    .on('undo_log')
    .columns(['chain_id', 'to_block'])
    .execute()
}
