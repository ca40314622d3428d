import type { Kysely } from 'kysely'
import type { Database } from '../../store/schema.ts'
import type { TokenFacts } from '../tokens/resolveTokenFacts.ts'

const CHUNK = 500

/** Stored mint facts of `mints` (those there are), with when they were read. */
export async function readTokenRows({
  db,
  chain,
  mints,
}: {
  db: Kysely<Database>
  chain: string
  mints: readonly string[]
}): Promise<{ facts: TokenFacts; refreshedAt: number }[]> {
  const out: { facts: TokenFacts; refreshedAt: number }[] = []
  for (let i = 0; i < mints.length; i += CHUNK) {
    const rows = await db
      .selectFrom('svm_tokens')
      .selectAll()
      .where('chain', '=', chain)
      .where('mint', 'in', mints.slice(i, i + CHUNK))
      .execute()
    for (const row of rows) {
      out.push({
        refreshedAt: Number(row.refreshed_at),
        facts: {
          mint: row.mint,
          programId: row.program_id,
          decimals: row.decimals,
          supply: BigInt(row.supply),
          mintAuthority: row.mint_authority,
          ...(row.name !== null ? { name: row.name } : {}),
          ...(row.symbol !== null ? { symbol: row.symbol } : {}),
          ...(row.uri !== null ? { uri: row.uri } : {}),
          ...(row.metadata_address !== null ? { metadataAddress: row.metadata_address } : {}),
        },
      })
    }
  }
  return out
}

export async function writeTokenRows({
  db,
  chain,
  facts,
  refreshedAt,
}: {
  db: Kysely<Database>
  chain: string
  facts: readonly TokenFacts[]
  refreshedAt: number
}): Promise<void> {
  for (let i = 0; i < facts.length; i += CHUNK) {
    const rows = facts.slice(i, i + CHUNK).map((f) => ({
      chain,
      mint: f.mint,
      program_id: f.programId,
      decimals: f.decimals,
      supply: f.supply.toString(),
      mint_authority: f.mintAuthority,
      name: f.name ?? null,
      symbol: f.symbol ?? null,
      uri: f.uri ?? null,
      metadata_address: f.metadataAddress ?? null,
      refreshed_at: refreshedAt,
    }))
    await db
      .insertInto('svm_tokens')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['chain', 'mint']).doUpdateSet((eb) => ({
          program_id: eb.ref('excluded.program_id'),
          decimals: eb.ref('excluded.decimals'),
          supply: eb.ref('excluded.supply'),
          mint_authority: eb.ref('excluded.mint_authority'),
          name: eb.ref('excluded.name'),
          symbol: eb.ref('excluded.symbol'),
          uri: eb.ref('excluded.uri'),
          metadata_address: eb.ref('excluded.metadata_address'),
          refreshed_at: eb.ref('excluded.refreshed_at'),
        })),
      )
      .execute()
  }
}
