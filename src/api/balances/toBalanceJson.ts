import { type Static, Type } from 'typebox'
import { nativeCurrency } from '../../chains/nativeCurrencies.ts'
import { formatTime } from '../../utils/formatTime.ts'
import type { ApiContext } from '../apiContext.ts'
import { chainName } from '../params.ts'
import { HistoricalPricesSchema, PoolSchema, toPoolJson } from '../prices/priceSchemas.ts'
import type { PricedBalance } from './priceBalanceRows.ts'

/** `low_liquidity`: the pricing pool holds less than this (USD). */
export const LOW_LIQUIDITY_USD = 10_000

/** A balance row of the EVM balances endpoints. Price fields are omitted when unpriced. */
export const BalanceSchema = Type.Object({
  chain: Type.String(),
  chain_id: Type.Integer(),
  address: Type.String({ description: 'Token contract, or `native` for the native asset' }),
  symbol: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  amount: Type.String({ description: 'Raw integer amount' }),
  decimals: Type.Optional(Type.Integer()),
  price_usd: Type.Optional(Type.Number()),
  value_usd: Type.Optional(Type.Number()),
  pool_size: Type.Optional(
    Type.Number({ description: 'USD value of the reserves of the pool the price comes from' }),
  ),
  low_liquidity: Type.Optional(Type.Boolean({ description: '`pool_size` < 10,000 USD' })),
  historical_prices: Type.Optional(HistoricalPricesSchema),
  pool: Type.Optional(PoolSchema),
  block_number: Type.Optional(
    Type.Integer({ description: 'With block_number or at: the block the amount was read at' }),
  ),
  block_time: Type.Optional(Type.String({ description: 'With block_number or at: its time' })),
})
export type BalanceJson = Static<typeof BalanceSchema>

export function toBalanceJson({
  ctx,
  row,
  withPool = false,
}: {
  ctx: ApiContext
  row: PricedBalance
  withPool?: boolean
}): BalanceJson {
  const base = {
    chain: chainName(ctx, row.chainId),
    chain_id: row.chainId,
    address: row.address,
  }
  const { price } = row
  const prices = {
    ...(price ? { price_usd: price.priceUsd } : {}),
    ...(row.valueUsd !== null ? { value_usd: row.valueUsd } : {}),
  }
  const extras = {
    ...(row.historical ? { historical_prices: row.historical } : {}),
    ...(row.at
      ? { block_number: row.at.blockNumber, block_time: formatTime(row.at.blockTime) }
      : {}),
    ...(withPool && price?.pool
      ? { pool: toPoolJson({ chainId: row.chainId, pool: price.pool }) }
      : {}),
  }
  if (row.address === 'native') {
    const native = nativeCurrency(row.chainId)
    return {
      ...base,
      symbol: native.symbol,
      name: native.name,
      amount: row.amount.toString(),
      decimals: native.decimals,
      ...prices,
      ...extras,
    }
  }
  return {
    ...base,
    ...(row.symbol !== undefined ? { symbol: row.symbol } : {}),
    ...(row.name !== undefined ? { name: row.name } : {}),
    amount: row.amount.toString(),
    ...(row.decimals !== undefined ? { decimals: row.decimals } : {}),
    ...prices,
    // A past price comes from the hourly points, which do not say how deep the pool was then.
    ...(price && !row.at
      ? { pool_size: price.poolSizeUsd, low_liquidity: price.poolSizeUsd < LOW_LIQUIDITY_USD }
      : {}),
    ...extras,
  }
}
