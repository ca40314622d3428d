import type { Kysely } from 'kysely'
import type { Database } from '../../store/schema.ts'
import { isPoolType } from '../pools/isPoolType.ts'
import type { SvmPrice } from '../prices/choosePoolPrice.ts'

const CHUNK = 500

/** Stored prices of `mints` (including "no route" rows), with when they were computed. */
export async function readPriceRows({
  db,
  chain,
  mints,
}: {
  db: Kysely<Database>
  chain: string
  mints: readonly string[]
}): Promise<{ mint: string; price: SvmPrice | undefined; refreshedAt: number }[]> {
  const out: { mint: string; price: SvmPrice | undefined; refreshedAt: number }[] = []
  for (let i = 0; i < mints.length; i += CHUNK) {
    const rows = await db
      .selectFrom('svm_prices')
      .selectAll()
      .where('chain', '=', chain)
      .where('mint', 'in', mints.slice(i, i + CHUNK))
      .execute()
    for (const row of rows) {
      out.push({
        mint: row.mint,
        refreshedAt: Number(row.refreshed_at),
        price:
          row.price_usd === null
            ? undefined
            : {
                priceUsd: Number(row.price_usd),
                liquidityUsd: row.liquidity_usd === null ? undefined : Number(row.liquidity_usd),
                poolType:
                  row.pool_type !== null && isPoolType(row.pool_type) ? row.pool_type : undefined,
                poolAddress: row.pool_address ?? undefined,
              },
      })
    }
  }
  return out
}

export async function writePriceRows({
  db,
  chain,
  prices,
  refreshedAt,
}: {
  db: Kysely<Database>
  chain: string
  prices: readonly { mint: string; price: SvmPrice | undefined }[]
  refreshedAt: number
}): Promise<void> {
  for (let i = 0; i < prices.length; i += CHUNK) {
    const rows = prices.slice(i, i + CHUNK).map(({ mint, price }) => ({
      chain,
      mint,
      price_usd: price?.priceUsd ?? null,
      liquidity_usd: price?.liquidityUsd ?? null,
      pool_type: price?.poolType ?? null,
      pool_address: price?.poolAddress ?? null,
      refreshed_at: refreshedAt,
    }))
    await db
      .insertInto('svm_prices')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['chain', 'mint']).doUpdateSet((eb) => ({
          price_usd: eb.ref('excluded.price_usd'),
          liquidity_usd: eb.ref('excluded.liquidity_usd'),
          pool_type: eb.ref('excluded.pool_type'),
          pool_address: eb.ref('excluded.pool_address'),
          refreshed_at: eb.ref('excluded.refreshed_at'),
        })),
      )
      .execute()
  }
}
