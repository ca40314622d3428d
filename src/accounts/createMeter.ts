import { sql } from 'kysely'
import type { Store } from '../store/createStore.ts'

export type Meter = {
  /**
   * For an account with a quota: adds `cost` to its stored usage at once if that stays within
   * `cuQuota`, else adds nothing and returns false. One atomic statement, so replicas on one
   * database never take the quota past its limit, however many requests run at once.
   */
  reserve(args: { accountId: string; cuQuota: number; cost: number }): Promise<boolean>
  /** Records spent units (negative: gives reserved ones back); written within `flushMs`. */
  charge(args: { accountId: string; cost: number }): void
  flush(): Promise<void>
  close(): Promise<void>
}

/** The metering period: calendar month, UTC. */
export function currentPeriod(now = new Date()): string {
  return now.toISOString().slice(0, 7)
}

/**
 * Compute-unit accounting per account and month. Without a quota, charges are summed in
 * memory and added to the store in one statement per account every `flushMs`, so a request
 * costs no write. With a quota, each request reserves its cost in the store before the work
 * (together with what this process has not flushed for the account yet) and gives it back if
 * the answer is not a 2xx: exact across replicas, never over the quota.
 */
export function createMeter({ store, flushMs = 1_000 }: { store: Store; flushMs?: number }): Meter {
  const pending = new Map<string, number>()
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
    async reserve({ accountId, cuQuota, cost }) {
      const period = currentPeriod()
      // What this process has not flushed for the account counts too, and goes with it.
      const unflushed = pending.get(accountId) ?? 0
      const add = cost + unflushed
      if (add > cuQuota) return false
      pending.delete(accountId)
      try {
        const row = await store.db
          .insertInto('usage')
          .values({ account_id: accountId, period, cu_used: add })
          .onConflict((oc) =>
            oc
              .columns(['account_id', 'period'])
              .doUpdateSet({ cu_used: sql`usage.cu_used + ${add}` })
              .where(sql<boolean>`usage.cu_used + ${add} <= ${cuQuota}`),
          )
          .returning('cu_used')
          .executeTakeFirst()
        if (row) return true
      } catch (error) {
        if (unflushed !== 0) pending.set(accountId, (pending.get(accountId) ?? 0) + unflushed)
        throw error
      }
      if (unflushed !== 0) pending.set(accountId, (pending.get(accountId) ?? 0) + unflushed)
      return false
    },
    charge({ accountId, cost }) {
      if (cost !== 0) pending.set(accountId, (pending.get(accountId) ?? 0) + cost)
    },
    flush,
    async close() {
      clearInterval(timer)
      await flush()
    },
  }
}
