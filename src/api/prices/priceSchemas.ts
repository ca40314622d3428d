import { Type } from 'typebox'
import type { PricePool } from './readTokenPrices.ts'

export const HistoricalPricesSchema = Type.Array(
  Type.Object({ offset_hours: Type.Integer(), price_usd: Type.Number() }),
  { description: 'One entry per requested offset that has a known price' },
)

export const PoolSchema = Type.Object(
  {
    pool_type: Type.String({ description: '`uniswap_v2` or `uniswap_v3` (forks included)' }),
    address: Type.String(),
    chain_id: Type.Integer(),
    tokens: Type.Array(Type.String()),
  },
  { description: 'The pool the price comes from (`metadata=pools`)' },
)

export function toPoolJson({ chainId, pool }: { chainId: number; pool: PricePool }) {
  return { pool_type: pool.type, address: pool.address, chain_id: chainId, tokens: pool.tokens }
}
