import type { Store } from '../store/createStore.ts'
import { type Subscription, toSubscription } from './subscription.ts'

/** Active subscriptions of one chain by address (lowercase). */
export type ChainSubscriptions = ReadonlyMap<string, readonly Subscription[]>

type Cache = { version: number; byChain: Map<number, Map<string, Subscription[]>> }

const caches = new WeakMap<Store, Cache>()
const EMPTY: ChainSubscriptions = new Map()

/**
 * The active subscriptions of a chain, indexed by address. Cached per store and reloaded only
 * when `webhook_version` moved (every subscription change bumps it in its own transaction), so
 * a batch costs one single-row read; changes made by another process are seen at the next batch.
 */
export async function loadActiveSubscriptions({
  store,
  chainId,
}: {
  store: Store
  chainId: number
}): Promise<ChainSubscriptions> {
  const row = await store.db
    .selectFrom('webhook_version')
    .select('version')
    .where('id', '=', 1)
    .executeTakeFirst()
  const version = Number(row?.version ?? 0)
  let cache = caches.get(store)
  if (!cache || cache.version !== version) {
    const rows = await store.db
      .selectFrom('webhook_subscriptions')
      .selectAll()
      .where('active', '=', 1)
      .execute()
    const byChain = new Map<number, Map<string, Subscription[]>>()
    for (const sub of rows.map(toSubscription)) {
      for (const id of sub.chainIds) {
        let byAddress = byChain.get(id)
        if (!byAddress) {
          byAddress = new Map()
          byChain.set(id, byAddress)
        }
        for (const address of sub.addresses) {
          const list = byAddress.get(address) ?? []
          list.push(sub)
          byAddress.set(address, list)
        }
      }
    }
    cache = { version, byChain }
    caches.set(store, cache)
  }
  return cache.byChain.get(chainId) ?? EMPTY
}
