import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { DialectCaps } from '../dialect.ts'

/** Zero as stored since 0015 (`u256.ts`). */
const ZERO = sql.lit('00')

/**
 * Holder counts (0008, 0015) move once per token and statement, not once per balance row.
 * PostgreSQL's row trigger upserted the token's `token_holder_counts` row at every change of a
 * balance, even one that moved neither count: a batch that changed a popular token's balances
 * 1,000 times wrote 1,000 versions of one row in one transaction, each update first walking
 * the versions before it (50,000 balance changes over 250 tokens: 2.8–3.3 s with the row
 * trigger, 0.5–0.8 with these; bench/README.md, 2026-11-27, fifth session). Now three
 * statement triggers read the statement's rows (transition tables: for `insert … on conflict
 * do update`, the inserted rows go to the insert trigger, the updated ones to the update
 * trigger) and write each token's net change once, skipping tokens whose counts did not move.
 * SQLite's row triggers stay (SQLite updates a row in place) but fire only when a count moves.
 * The counts are the same as before; the previous release's processes write through the new
 * triggers unchanged. Released: never edit.
 */
export async function up(db: Kysely<unknown>, caps: DialectCaps): Promise<void> {
  if (caps.name === 'sqlite') {
    await sql`drop trigger token_balances_count_update`.execute(db)
    await sql`drop trigger token_balances_count_delete`.execute(db)
    await sql`create trigger token_balances_count_update after update on token_balances
      when (new.balance <> ${ZERO}) <> (old.balance <> ${ZERO})
        or (new.has_initiated_transfer = 1) <> (old.has_initiated_transfer = 1)
      begin
        update token_holder_counts set
          holders = holders + (new.balance <> ${ZERO}) - (old.balance <> ${ZERO}),
          senders = senders + (new.has_initiated_transfer = 1) - (old.has_initiated_transfer = 1)
        where chain_id = new.chain_id and token = new.token;
      end`.execute(db)
    await sql`create trigger token_balances_count_delete after delete on token_balances
      when old.balance <> ${ZERO} or old.has_initiated_transfer = 1
      begin
        update token_holder_counts set
          holders = holders - (old.balance <> ${ZERO}),
          senders = senders - (old.has_initiated_transfer = 1)
        where chain_id = old.chain_id and token = old.token;
      end`.execute(db)
    return
  }
  await sql`drop trigger token_balances_count on token_balances`.execute(db)
  await sql`drop function scry_count_token_holders()`.execute(db)
  // Each row's part in the counts, signed: +1 for a row after the change, -1 before it.
  const part = (rows: string, sign: '' | '-') =>
    sql`select chain_id, token, ${sql.raw(sign)}(balance <> ${ZERO})::int as holders,
      ${sql.raw(sign)}(has_initiated_transfer = 1)::int as senders from ${sql.raw(rows)}`
  // Each token's net change added to its row; a token seen for the first time gets one, even
  // at zero (as the row trigger did), so inserted rows count whether they moved or not.
  const addToCounts = (rows: RawBuilder<unknown>, onlyMoved: boolean) => sql`
    insert into token_holder_counts as c (chain_id, token, holders, senders)
    select chain_id, token, sum(holders), sum(senders) from (${rows}) p
    group by chain_id, token
    ${onlyMoved ? sql`having sum(holders) <> 0 or sum(senders) <> 0` : sql``}
    on conflict (chain_id, token) do update set
      holders = c.holders + excluded.holders, senders = c.senders + excluded.senders;`
  await sql`create function scry_count_holders_inserted() returns trigger language plpgsql as $$
    begin
      ${addToCounts(part('new_rows', ''), false)}
      return null;
    end $$`.execute(db)
  await sql`create function scry_count_holders_updated() returns trigger language plpgsql as $$
    begin
      ${addToCounts(sql`${part('new_rows', '')} union all ${part('old_rows', '-')}`, true)}
      return null;
    end $$`.execute(db)
  await sql`create function scry_count_holders_deleted() returns trigger language plpgsql as $$
    begin
      update token_holder_counts as c set holders = c.holders - d.holders,
        senders = c.senders - d.senders
      from (select chain_id, token, sum(holders) as holders, sum(senders) as senders
        from (${part('old_rows', '')}) p group by chain_id, token) d
      where c.chain_id = d.chain_id and c.token = d.token
        and (d.holders <> 0 or d.senders <> 0);
      return null;
    end $$`.execute(db)
  await sql`create trigger token_balances_count_insert after insert on token_balances
    referencing new table as new_rows
    for each statement execute function scry_count_holders_inserted()`.execute(db)
  await sql`create trigger token_balances_count_update after update on token_balances
    referencing old table as old_rows new table as new_rows
    for each statement execute function scry_count_holders_updated()`.execute(db)
  await sql`create trigger token_balances_count_delete after delete on token_balances
    referencing old table as old_rows
    for each statement execute function scry_count_holders_deleted()`.execute(db)
}
