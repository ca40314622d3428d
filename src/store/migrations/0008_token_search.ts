import { type Kysely, sql } from 'kysely'
import type { DialectCaps } from '../dialect.ts'

/** Zero as stored when this migration was released (64 hex digits; 0015 changed it). */
const U256_ZERO = '0'.repeat(64)

/**
 * Token search and holder counts, both derived from state tables by triggers, so they follow
 * every write of the indexer, and every reorg undo, in the same transaction:
 * - ERC20 symbols and names in a substring index: SQLite's FTS5 table `token_search` (trigram
 *   tokenizer, contentless, keyed by the `tokens` rowid), PostgreSQL's `pg_trgm` GIN index on
 *   `tokens` itself.
 * - `token_holder_counts`: per token, holders with a non-zero balance and holders that ever
 *   sent it (search ranks by the first and tells airdrop spam by the second).
 * Released: never edit, add a new migration instead.
 */
export async function up(db: Kysely<unknown>, caps: DialectCaps): Promise<void> {
  await db.schema
    .createTable('token_holder_counts')
    .addColumn('chain_id', caps.intType, (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('holders', caps.intType, (c) => c.notNull())
    .addColumn('senders', caps.intType, (c) => c.notNull())
    .addPrimaryKeyConstraint('token_holder_counts_pk', ['chain_id', 'token'])
    .execute()
  await sql`
    insert into token_holder_counts (chain_id, token, holders, senders)
    select chain_id, token,
      sum(case when balance <> ${U256_ZERO} then 1 else 0 end),
      sum(case when has_initiated_transfer = 1 then 1 else 0 end)
    from token_balances group by chain_id, token
  `.execute(db)

  switch (caps.textSearch) {
    case 'fts5_trigram':
      await sqliteSearch(db)
      break
    case 'pg_trgm':
      await postgresSearch(db)
      break
    default: {
      const never: never = caps.textSearch
      throw new Error(`unknown text search ${String(never)}`)
    }
  }
}

async function sqliteSearch(db: Kysely<unknown>): Promise<void> {
  const statements = [
    sql`create virtual table token_search using fts5(symbol, name, content='', tokenize='trigram')`,
    sql`insert into token_search (rowid, symbol, name)
      select rowid, coalesce(symbol, ''), coalesce(name, '') from tokens where standard = 'erc20'`,
    sql`create trigger tokens_search_insert after insert on tokens when new.standard = 'erc20'
      begin
        insert into token_search (rowid, symbol, name)
        values (new.rowid, coalesce(new.symbol, ''), coalesce(new.name, ''));
      end`,
    sql`create trigger tokens_search_delete after delete on tokens when old.standard = 'erc20'
      begin
        insert into token_search (token_search, rowid, symbol, name)
        values ('delete', old.rowid, coalesce(old.symbol, ''), coalesce(old.name, ''));
      end`,
    sql`create trigger tokens_search_update after update on tokens
      when old.symbol is not new.symbol or old.name is not new.name
        or old.standard is not new.standard or old.rowid is not new.rowid
      begin
        insert into token_search (token_search, rowid, symbol, name)
        select 'delete', old.rowid, coalesce(old.symbol, ''), coalesce(old.name, '')
        where old.standard = 'erc20';
        insert into token_search (rowid, symbol, name)
        select new.rowid, coalesce(new.symbol, ''), coalesce(new.name, '')
        where new.standard = 'erc20';
      end`,
    // Holder counts: every change of a balance row moves them by its before/after difference.
    sql`create trigger token_balances_count_insert after insert on token_balances
      begin
        insert into token_holder_counts (chain_id, token, holders, senders)
        values (new.chain_id, new.token, new.balance <> ${sql.lit(U256_ZERO)},
          new.has_initiated_transfer = 1)
        on conflict (chain_id, token) do update set
          holders = holders + excluded.holders, senders = senders + excluded.senders;
      end`,
    sql`create trigger token_balances_count_update after update on token_balances
      begin
        update token_holder_counts set
          holders = holders + (new.balance <> ${sql.lit(U256_ZERO)}) - (old.balance <> ${sql.lit(U256_ZERO)}),
          senders = senders + (new.has_initiated_transfer = 1) - (old.has_initiated_transfer = 1)
        where chain_id = new.chain_id and token = new.token;
      end`,
    sql`create trigger token_balances_count_delete after delete on token_balances
      begin
        update token_holder_counts set
          holders = holders - (old.balance <> ${sql.lit(U256_ZERO)}),
          senders = senders - (old.has_initiated_transfer = 1)
        where chain_id = old.chain_id and token = old.token;
      end`,
  ]
  for (const statement of statements) await statement.execute(db)
}

async function postgresSearch(db: Kysely<unknown>): Promise<void> {
  const zero = sql.lit(U256_ZERO)
  const statements = [
    sql`create extension if not exists pg_trgm`,
    // The expression `searchTokens` matches against; ERC20 rows only.
    sql`create index tokens_search on tokens using gin
      ((lower(coalesce(symbol, '') || E'\\n' || coalesce(name, ''))) gin_trgm_ops)
      where standard = 'erc20'`,
    sql`create function scry_count_token_holders() returns trigger language plpgsql as $$
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
    $$`,
    sql`create trigger token_balances_count after insert or update or delete on token_balances
      for each row execute function scry_count_token_holders()`,
  ]
  for (const statement of statements) await statement.execute(db)
}
