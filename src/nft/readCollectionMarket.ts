import { type Kysely, sql } from 'kysely'
import { ZERO_ADDRESS } from '../evm/derive/zeroAddress.ts'
import { hexToBytes } from '../store/hexBytes.ts'
import type { Database } from '../store/schema.ts'
import { TRADE_VOLUME_SATURATION, UNIQUE_TRADERS_SATURATION } from './scoreCollection.ts'

const NFT_KINDS = sql<boolean>`kind in ('erc721', 'erc1155')`
const ZERO = hexToBytes(ZERO_ADDRESS)

export type CollectionMarket = { tradeVolume: number; uniqueBuyers: number; uniqueSellers: number }

/**
 * Market signals of an NFT collection from the transfers table. Scry does not decode
 * marketplace sales, so a "trade" is any transfer of the collection that is neither a mint
 * (from the zero address) nor a burn (to it); buyers are the distinct receivers and sellers
 * the distinct senders of those. Each count stops at the level where the spam feature
 * saturates, which bounds the work per collection.
 *
 * A range scan of the partial index `transfers_nft_by_token` (migration 0012), which the
 * planners use only when the query repeats its predicate as written: keep `NFT_KINDS` literal.
 */
export async function readCollectionMarket({
  db,
  chainId,
  contract,
}: {
  db: Kysely<Database>
  chainId: number
  contract: string
}): Promise<CollectionMarket> {
  const token = hexToBytes(contract)
  const trades = () =>
    db
      .selectFrom('transfers')
      .where('chain_id', '=', chainId)
      .where('token', '=', token)
      .where(NFT_KINDS)
      .where('from_address', '<>', ZERO)
      .where('to_address', '<>', ZERO)
  const count = async (
    query: ReturnType<ReturnType<typeof trades>['select']>,
    cap: number,
  ): Promise<number> => {
    const row = await db
      .selectFrom(query.limit(cap).as('t'))
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .executeTakeFirst()
    return Number(row?.n ?? 0)
  }
  const [tradeVolume, uniqueBuyers, uniqueSellers] = await Promise.all([
    count(trades().select('seq'), TRADE_VOLUME_SATURATION),
    count(trades().select('to_address').distinct(), UNIQUE_TRADERS_SATURATION),
    count(trades().select('from_address').distinct(), UNIQUE_TRADERS_SATURATION),
  ])
  return { tradeVolume, uniqueBuyers, uniqueSellers }
}
