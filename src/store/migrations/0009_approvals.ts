import { type Kysely, sql } from 'kysely'
import type { DialectCaps } from '../dialect.ts'

/**
 * Approvals as the approvals endpoint lists them: the key gains `kind`, so that a Permit2
 * allowance (kind `permit2`: the token's spender through the Permit2 contract) lives beside
 * a direct ERC20 allowance of the same owner, token and spender; each row keeps the block,
 * time and transaction of the approval that set it, and Permit2's expiry. Rows from before
 * keep their block as the approval block (time from `blocks` where known, no transaction).
 * Released: never edit, add a new migration instead.
 */
export async function up(db: Kysely<unknown>, caps: DialectCaps): Promise<void> {
  const int = caps.intType
  await db.schema
    .createTable('approvals_v2')
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('chain_id', int, (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('spender', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('allowance', caps.u256Type, (c) => c.notNull())
    .addColumn('block_number', int, (c) => c.notNull())
    .addColumn('approved_block', int)
    .addColumn('approved_time', int)
    .addColumn('tx_hash', 'text')
    .addColumn('expiration', int)
    .addPrimaryKeyConstraint('approvals_v2_pk', ['owner', 'chain_id', 'token', 'spender', 'kind'])
    .execute()
  await sql`
    insert into approvals_v2
      (owner, chain_id, token, spender, kind, allowance, block_number, approved_block, approved_time)
    select a.owner, a.chain_id, a.token, a.spender, a.kind, a.allowance, a.block_number,
      a.block_number, b.timestamp
    from approvals a
    left join blocks b on b.chain_id = a.chain_id and b.number = a.block_number
  `.execute(db)
  await db.schema.dropTable('approvals').execute()
  await db.schema.alterTable('approvals_v2').renameTo('approvals').execute()
}
