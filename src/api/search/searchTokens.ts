import { type Kysely, type SelectQueryBuilder, type SqlBool, sql } from 'kysely'
import type { DialectCaps } from '../../store/dialect.ts'
import type { Database, TokenTable } from '../../store/schema.ts'

export type TokenHit = {
  chain_id: number
  address: string
  symbol: string | null
  name: string | null
  decimals: number | null
}

/** Fewer characters than a trigram: nothing can match. */
export const MIN_QUERY_LENGTH = 3

/**
 * ERC20 tokens whose symbol or name contains `query` (case-insensitive), best first: priced
 * tokens by `pool_size` (the liquidity of the pool that prices them), then unpriced ones,
 * then spam (unpriced, and at most one address ever sent it: an airdrop), each by holder
 * count; ties by (chain_id, address). The match is an index lookup, never a scan of
 * `tokens`: SQLite's FTS5 trigram table `token_search`, or PostgreSQL's `pg_trgm` index
 * `tokens_search` (migration 0007).
 */
export async function searchTokens({
  db,
  caps,
  query,
  chainIds,
  limit,
}: {
  db: Kysely<Database>
  caps: Pick<DialectCaps, 'textSearch'>
  query: string
  chainIds: readonly number[]
  limit: number
}): Promise<TokenHit[]> {
  const text = query.trim().toLowerCase()
  if ([...text].length < MIN_QUERY_LENGTH || chainIds.length === 0) return []
  const rows = await searchTokensQuery({ db, caps, text, chainIds, limit }).execute()
  return rows.map((r) => ({ ...r, chain_id: Number(r.chain_id) }))
}

/** The query of `searchTokens` for a lowercased, trimmed text (tests EXPLAIN it). */
export function searchTokensQuery({
  db,
  caps,
  text,
  chainIds,
  limit,
}: {
  db: Kysely<Database>
  caps: Pick<DialectCaps, 'textSearch'>
  text: string
  chainIds: readonly number[]
  limit: number
}) {
  const tier = sql<number>`case when p.pool_size_usd is not null then 0
    when coalesce(h.senders, 0) > 1 then 1 else 2 end`
  return matchingTokens({ db, caps, text })
    .leftJoin('token_prices as p', (j) =>
      j.onRef('p.chain_id', '=', 't.chain_id').onRef('p.token', '=', 't.address'),
    )
    .leftJoin('token_holder_counts as h', (j) =>
      j.onRef('h.chain_id', '=', 't.chain_id').onRef('h.token', '=', 't.address'),
    )
    .select(['t.chain_id', 't.address', 't.symbol', 't.name', 't.decimals'])
    .where('t.standard', '=', 'erc20')
    .where('t.chain_id', 'in', [...chainIds])
    .orderBy(tier)
    .orderBy(sql`coalesce(p.pool_size_usd, 0)`, 'desc')
    .orderBy(sql`coalesce(h.holders, 0)`, 'desc')
    .orderBy('t.chain_id')
    .orderBy('t.address')
    .limit(limit)
}

type Matched = SelectQueryBuilder<Database & { t: TokenTable }, 't', object>

/**
 * `tokens as t`, restricted to the rows whose symbol or name contains `text`, through each
 * engine's index (the one place where they differ). SQLite: the FTS5 matches drive the query
 * (a CROSS JOIN keeps them the outer loop; otherwise SQLite may walk every token of the chain
 * and test each rowid against the matches). PostgreSQL: the pg_trgm index on the expression.
 */
function matchingTokens({
  db,
  caps,
  text,
}: {
  db: Kysely<Database>
  caps: Pick<DialectCaps, 'textSearch'>
  text: string
}): Matched {
  switch (caps.textSearch) {
    case 'fts5_trigram': {
      // A quoted phrase: its trigrams in a row, that is the substring, in symbol or name.
      const phrase = `"${text.replaceAll('"', '""')}"`
      const matched = sql<{
        id: number
      }>`(select rowid as id from token_search where token_search match ${phrase})`
      return db
        .selectFrom(matched.as('m'))
        .crossJoin('tokens as t')
        .where(sql<SqlBool>`t.rowid = m.id`) as unknown as Matched
    }
    case 'pg_trgm': {
      const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
      return db
        .selectFrom('tokens as t')
        .where(
          sql<SqlBool>`lower(coalesce(t.symbol, '') || E'\\n' || coalesce(t.name, '')) like ${pattern}`,
        )
    }
    default: {
      const never: never = caps.textSearch
      throw new Error(`unknown text search ${String(never)}`)
    }
  }
}
