import { sql } from 'kysely'
import type { Store } from '../store/createStore.ts'

export type Meter = {
  /** Compute units the account may still spend this month (Infinity when unlimited). */
  remaining(args: { accountId: string; cuQuota: number | null }): Promise<number>
  /** Records spent units; written to the store within `flushMs` and on `close()`. */
  charge(args: { accountId: string; cost: number }): void
  flush(): Promise<void>
  close(): Promise<void>
}

/** The metering period: calendar month, UTC. */
export function currentPeriod(now = new Date()): string {
  return now.toISOString().slice(0, 7)
}

/**
 * Compute-unit accounting per account and month. Charges are summed in memory and added to
 * the store in one statement per account every `flushMs`, so a request costs no write; the
 * quota check reads the stored total (cached for `cacheMs`) plus what is not flushed yet.
 * Replicas share the store, so they share the totals, give or take one flush interval.
 */
export function createMeter({
  store,
  flushMs = 1_000,
  cacheMs = 1_000,
}: {
  store: Store
  flushMs?: number
  cacheMs?: number
}): Meter {
  const pending = new Map<string, number>()
  const used = new Map<string, { value: number; period: string; until: number }>()
  let flushing: Promise<void> = Promise.resolve()

  async function flushNow() {
    if (pending.size === 0) return
    const period = currentPeriod()
    const batch = [...pending]
    pending.clear()
    for (const [i, [accountId, cost]] of batch.entries()) {
      try {
        await write(accountId, cost, period)
      } catch (error) {
        // Nothing is lost: the unwritten charges wait for the next flush.
        for (const [id, c] of batch.slice(i)) pending.set(id, (pending.get(id) ?? 0) + c)
        throw error
      }
      used.delete(accountId)
    }
  }
  async function write(accountId: string, cost: number, period: string) {
    await store.db
      .insertInto('usage')
      .values({ account_id: accountId, period, cu_used: cost })
      .onConflict((oc) =>
        oc.columns(['account_id', 'period']).doUpdateSet({ cu_used: sql`usage.cu_used + ${cost}` }),
      )
      .execute()
  }
  const flush = () => {
    flushing = flushing.then(flushNow, flushNow)
    return flushing
  }
  const timer = setInterval(() => {
    flush().catch(() => {})
  }, flushMs)
  timer.unref()

  return {
    async remaining({ accountId, cuQuota }) {
      if (cuQuota === null) return Number.POSITIVE_INFINITY
      const period = currentPeriod()
      let hit = used.get(accountId)
      if (!hit || hit.until < Date.now() || hit.period !== period) {
        const row = await store.db
          .selectFrom('usage')
          .select('cu_used')
          .where('account_id', '=', accountId)
          .where('period', '=', period)
          .executeTakeFirst()
        hit = { value: row?.cu_used ?? 0, period, until: Date.now() + cacheMs }
        used.set(accountId, hit)
      }
      return cuQuota - hit.value - (pending.get(accountId) ?? 0)
    },
    charge({ accountId, cost }) {
      if (cost > 0) pending.set(accountId, (pending.get(accountId) ?? 0) + cost)
    },
    flush,
    async close() {
      clearInterval(timer)
      await flush()
    },
  }
}
