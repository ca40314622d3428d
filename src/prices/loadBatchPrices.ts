import type { Address } from '../evm/types.ts'
import type { Store } from '../store/createStore.ts'
import type { TokenPrice } from './computePrices.ts'

/** A batch's price of a token, or of `native` (its wrapped token's), after the batch. */
export type BatchPriceOf = (
  asset: Address | 'native',
) => { priceUsd: number; poolSizeUsd: number } | undefined

/**
 * Prices after a batch for the tokens it names: the recomputed prices when the batch changed
 * a trusted pool (they hold every priced token), else the store's current ones.
 */
export async function loadBatchPrices({
  store,
  chainId,
  recomputed,
  tokens,
  wrappedNative,
}: {
  store: Store
  chainId: number
  recomputed: ReadonlyMap<Address, TokenPrice> | undefined
  tokens: Iterable<Address>
  wrappedNative: Address | null
}): Promise<BatchPriceOf> {
  const resolve = (asset: Address | 'native') => (asset === 'native' ? wrappedNative : asset)
  if (recomputed) {
    return (asset) => {
      const token = resolve(asset)
      return token ? recomputed.get(token) : undefined
    }
  }
  const ids = new Set(tokens)
  if (wrappedNative) ids.add(wrappedNative)
  const rows =
    ids.size === 0 ? [] : await store.readState({ table: 'token_prices', chainId, ids: [...ids] })
  const stored = new Map(
    rows.map((r) => [r.token, { priceUsd: r.price_usd, poolSizeUsd: r.pool_size_usd }]),
  )
  return (asset) => {
    const token = resolve(asset)
    return token ? stored.get(token) : undefined
  }
}
