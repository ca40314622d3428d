import { type Expression, type Kysely, type RawBuilder, sql } from 'kysely'
import type { DialectCaps } from '../dialect.ts'

/** Every uint256 column when this migration was released. */
const COLUMNS: Record<string, string[]> = {
  transactions: ['value', 'gas_price', 'gas_used'],
  transfers: ['token_id', 'value'],
  activity: ['value', 'token_id', 'to_value'],
  native_balances: ['balance'],
  token_balances: ['balance'],
  nft_holdings: ['token_id', 'balance'],
  tokens: ['total_supply'],
  approvals: ['allowance'],
  pools: ['reserve0', 'reserve1', 'sqrt_price_x96', 'liquidity'],
  nft_metadata: ['token_id'],
}
/** uint256 fields of undo entries' keys (state tables keyed by a uint256). */
const KEY_COLUMNS: Record<string, string[]> = { nft_holdings: ['token_id'] }
/** The new zero, in the holder-count triggers of 0008. */
const ZERO = '00'

/**
 * uint256 values from 64 zero-padded hex digits to the order-preserving compact form of
 * `u256.ts` (two decimal digits for the number of hex digits, then the digits without leading
 * zeros): `0` is `00`, a balance of 10^18 17 characters instead of 64. Every uint256 column, the
 * previous rows and keys kept in `undo_log`, and the holder-count triggers of 0008 (which
 * compare with zero) move together, in one transaction on both engines. Released: never edit.
 */
export async function up(db: Kysely<unknown>, caps: DialectCaps): Promise<void> {
  const sqlite = caps.name === 'sqlite'
  /** The compact form of 64-digit text (other text, and null, as it is). */
  const convert = (value: Expression<unknown> | RawBuilder<unknown>) => {
    const digits = sql`ltrim(${value}, '0')`
    const count = sqlite
      ? sql`printf('%02d', length(${digits}))`
      : sql`lpad(length(${digits})::text, 2, '0')`
    return sql`case when length(${value}) = 64 then ${count} || ${digits} else ${value} end`
  }

  // The counts must not move while balances are rewritten: triggers off, back with the new zero.
  if (sqlite) {
    for (const name of ['insert', 'update', 'delete']) {
      await sql`drop trigger ${sql.raw(`token_balances_count_${name}`)}`.execute(db)
    }
  } else {
    await sql`alter table token_balances disable trigger token_balances_count`.execute(db)
  }

  for (const [table, columns] of Object.entries(COLUMNS)) {
    const sets = columns.map((c) => sql`${sql.ref(c)} = ${convert(sql.ref(c))}`)
    await sql`update ${sql.table(table)} set ${sql.join(sets)}`.execute(db)
  }

  // Undo entries restore whole rows and delete by key: their uint256 fields move too.
  const jsonFields = async (column: 'prev' | 'row_key', fields: Record<string, string[]>) => {
    for (const [table, names] of Object.entries(fields)) {
      let value: RawBuilder<unknown>
      if (sqlite) {
        const paths = names.map(
          (n) =>
            sql`${sql.lit(`$.${n}`)}, ${convert(sql`json_extract(${sql.ref(column)}, ${sql.lit(`$.${n}`)})`)}`,
        )
        value = sql`json_replace(${sql.ref(column)}, ${sql.join(paths)})`
      } else {
        let json: RawBuilder<unknown> = sql`${sql.ref(column)}::jsonb`
        for (const n of names) {
          const field = convert(sql`(${sql.ref(column)}::jsonb ->> ${sql.lit(n)})`)
          json = sql`jsonb_set(${json}, ${sql.lit(`{${n}}`)}, coalesce(to_jsonb(${field}), 'null'::jsonb), false)`
        }
        value = sql`${json}::text`
      }
      await sql`update undo_log set ${sql.ref(column)} = ${value}
        where table_name = ${sql.lit(table)} and ${sql.ref(column)} is not null`.execute(db)
    }
  }
  const stateColumns = Object.fromEntries(
    Object.entries(COLUMNS).filter(([t]) =>
      [
        'native_balances',
        'token_balances',
        'nft_holdings',
        'tokens',
        'approvals',
        'pools',
      ].includes(t),
    ),
  )
  await jsonFields('prev', stateColumns)
  await jsonFields('row_key', KEY_COLUMNS)

  const zero = sql.lit(ZERO)
  if (sqlite) {
    await sql`create trigger token_balances_count_insert after insert on token_balances
      begin
        insert into token_holder_counts (chain_id, token, holders, senders)
        values (new.chain_id, new.token, new.balance <> ${zero}, new.has_initiated_transfer = 1)
        on conflict (chain_id, token) do update set
          holders = holders + excluded.holders, senders = senders + excluded.senders;
      end`.execute(db)
    await sql`create trigger token_balances_count_update after update on token_balances
      begin
        update token_holder_counts set
          holders = holders + (new.balance <> ${zero}) - (old.balance <> ${zero}),
          senders = senders + (new.has_initiated_transfer = 1) - (old.has_initiated_transfer = 1)
        where chain_id = new.chain_id and token = new.token;
      end`.execute(db)
    await sql`create trigger token_balances_count_delete after delete on token_balances
      begin
        update token_holder_counts set
          holders = holders - (old.balance <> ${zero}),
          senders = senders - (old.has_initiated_transfer = 1)
        where chain_id = old.chain_id and token = old.token;
      end`.execute(db)
    return
  }
  await sql`create or replace function scry_count_token_holders() returns trigger
    language plpgsql as $$
      declare
        dh bigint := 0;
        ds bigint := 0;
      begin
        if tg_op in ('INSERT', 'UPDATE') then
          dh := dh + (new.balance <> ${zero})::int;
          ds := ds + (new.has_initiated_transfer = 1)::int;
        end if;
        if tg_op in ('UPDATE', 'DELETE') then
          dh := dh - (old.balance <> ${zero})::int;
          ds := ds - (old.has_initiated_transfer = 1)::int;
        end if;
        if tg_op = 'DELETE' then
          update token_holder_counts set holders = holders + dh, senders = senders + ds
          where chain_id = old.chain_id and token = old.token;
          return old;
        end if;
        insert into token_holder_counts as c (chain_id, token, holders, senders)
        values (new.chain_id, new.token, dh, ds)
        on conflict (chain_id, token) do update set
          holders = c.holders + excluded.holders, senders = c.senders + excluded.senders;
        return new;
      end
    $$`.execute(db)
  await sql`alter table token_balances enable trigger token_balances_count`.execute(db)
}
