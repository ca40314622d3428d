import { type Kysely, sql } from 'kysely'
import type { DialectCaps } from '../dialect.ts'

/**
 * `defi_tokens.pool`: the Aave pool an Aave token belongs to (kinds `aave_v3_atoken`,
 * `aave_v3_vdebt`, found by the same first-seen probe as vaults). Stored ERC20 tokens that are
 * not already DeFi tokens go back on `defi_token_probes`, so `probeStoredTokens` finds the Aave
 * tokens among them once, in the background. Released: never edit.
 */
export async function up(db: Kysely<unknown>, _caps: DialectCaps): Promise<void> {
  await db.schema.alterTable('defi_tokens').addColumn('pool', 'text').execute()
  await sql`
    insert into defi_token_probes (chain_id, address)
    select t.chain_id, t.address from tokens t
    where t.standard = 'erc20'
      and not exists (
        select 1 from defi_tokens d where d.chain_id = t.chain_id and d.address = t.address
      )
    on conflict do nothing
  `.execute(db)
}
