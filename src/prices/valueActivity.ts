import { nativeCurrency } from '../chains/nativeCurrencies.ts'
import type { Address } from '../evm/types.ts'
import type { ActivityRecord } from '../store/schema.ts'
import { fromU256 } from '../store/u256.ts'
import type { BatchPriceOf } from './createPriceGraph.ts'

type ActivityRow = ActivityRecord

/**
 * Sets `value_usd` on a batch's fungible activity items (native and ERC20; a swap by the
 * side the wallet gave; not approvals) at the prices after the batch. Items of unpriced
 * tokens, or of tokens without decimals, keep no value. Pure (mutates the rows it is given).
 */
export function valueActivity({
  chainId,
  rows,
  priceOf,
  decimals,
}: {
  chainId: number
  rows: ActivityRow[]
  priceOf: BatchPriceOf
  decimals: ReadonlyMap<Address, number>
}): void {
  const nativeDecimals = nativeCurrency(chainId).decimals
  for (const row of rows) {
    // An approval's value is an allowance, not an amount that moved (often 2^256 - 1).
    if (row.value === null || row.value === undefined || row.type === 'approve') continue
    const asset =
      row.asset_type === 'native'
        ? ('native' as const)
        : row.asset_type === 'erc20' && row.token_address
          ? (row.token_address as Address)
          : undefined
    if (!asset) continue
    const price = priceOf(asset)?.priceUsd
    const d = asset === 'native' ? nativeDecimals : decimals.get(asset)
    if (price === undefined || d === undefined) continue
    row.value_usd = (Number(fromU256(row.value)) / 10 ** d) * price
  }
}

/** Tokens a batch's activity names (both sides of swaps). */
export function activityTokens(rows: readonly ActivityRow[]): Set<Address> {
  const out = new Set<Address>()
  for (const row of rows) {
    if (row.token_address) out.add(row.token_address as Address)
    if (row.to_token_address) out.add(row.to_token_address as Address)
  }
  return out
}
