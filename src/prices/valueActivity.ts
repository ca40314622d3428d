import type { Insertable } from 'kysely'
import { nativeCurrency } from '../chains/nativeCurrencies.ts'
import type { Address } from '../evm/types.ts'
import type { Store } from '../store/createStore.ts'
import type { Database } from '../store/schema.ts'
import { fromU256 } from '../store/u256.ts'

type ActivityRow = Insertable<Database['activity']>

/**
 * Sets `value_usd` on a batch's fungible activity items (native and ERC20; a swap by the
 * side the wallet gave) at the prices after the batch: `prices` when the batch recomputed
 * them, else the store's. Items of unpriced tokens keep no value.
 */
export async function valueActivity({
  store,
  chainId,
  rows,
  prices,
  decimals,
  wrappedNative,
}: {
  store: Store
  chainId: number
  rows: ActivityRow[]
  prices: ReadonlyMap<Address, { priceUsd: number }> | undefined
  decimals: ReadonlyMap<Address, number>
  wrappedNative: Address | null
}): Promise<void> {
  const tokenOf = (row: ActivityRow): Address | null | undefined => {
    if (row.value === null || row.value === undefined) return undefined
    if (row.asset_type === 'native') return wrappedNative
    if (row.asset_type === 'erc20') return (row.token_address ?? undefined) as Address | undefined
    return undefined
  }
  const needed = new Set<Address>()
  for (const row of rows) {
    const token = tokenOf(row)
    if (token) needed.add(token)
  }
  if (needed.size === 0) return
  let priceOf: (token: Address) => number | undefined
  if (prices) priceOf = (token) => prices.get(token)?.priceUsd
  else {
    const stored = await store.readState({ table: 'token_prices', chainId, ids: [...needed] })
    const map = new Map(stored.map((r) => [r.token, r.price_usd]))
    priceOf = (token) => map.get(token)
  }
  const nativeDecimals = nativeCurrency(chainId).decimals
  for (const row of rows) {
    const token = tokenOf(row)
    if (!token || row.value === null || row.value === undefined) continue
    const price = priceOf(token)
    const d = row.asset_type === 'native' ? nativeDecimals : decimals.get(token)
    if (price === undefined || d === undefined) continue
    row.value_usd = (Number(fromU256(row.value)) / 10 ** d) * price
  }
}
