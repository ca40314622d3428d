import { type Static, Type } from 'typebox'
import { nativeCurrency } from '../../chains/nativeCurrencies.ts'
import type { ApiContext } from '../apiContext.ts'
import { chainName } from '../params.ts'
import type { BalanceRow } from './readBalances.ts'

/**
 * A balance row of the EVM balances endpoints. Price fields (`price_usd`, `value_usd`,
 * `pool_size`, `low_liquidity`) are not produced until prices exist: they are omitted.
 */
export const BalanceSchema = Type.Object({
  chain: Type.String(),
  chain_id: Type.Integer(),
  address: Type.String({ description: 'Token contract, or `native` for the native asset' }),
  symbol: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  amount: Type.String({ description: 'Raw integer amount' }),
  decimals: Type.Optional(Type.Integer()),
})
export type BalanceJson = Static<typeof BalanceSchema>

export function toBalanceJson({ ctx, row }: { ctx: ApiContext; row: BalanceRow }): BalanceJson {
  const base = {
    chain: chainName(ctx, row.chainId),
    chain_id: row.chainId,
    address: row.address,
  }
  if (row.address === 'native') {
    const native = nativeCurrency(row.chainId)
    return {
      ...base,
      symbol: native.symbol,
      name: native.name,
      amount: row.amount.toString(),
      decimals: native.decimals,
    }
  }
  return {
    ...base,
    ...(row.symbol !== undefined ? { symbol: row.symbol } : {}),
    ...(row.name !== undefined ? { name: row.name } : {}),
    amount: row.amount.toString(),
    ...(row.decimals !== undefined ? { decimals: row.decimals } : {}),
  }
}
