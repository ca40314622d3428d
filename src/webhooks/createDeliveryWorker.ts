import type { lookup as dnsLookup } from 'node:dns'
import type { Kysely, Selectable } from 'kysely'
import type { Meter } from '../accounts/createMeter.ts'
import type { Logger } from '../internal/logger.ts'
import type { Store } from '../store/createStore.ts'
import type { Database, WebhookDeliveryTable } from '../store/schema.ts'
import { type DeliveryAttempt, postDelivery } from './postDelivery.ts'
import { nextAttemptAt } from './retrySchedule.ts'

export type DeliveryWorker = {
  /** Delivers until the signal aborts; attempts in flight finish (within their timeout) first. */
  run(signal: AbortSignal): Promise<void>
}

export type DeliveryWorkerOptions = {
  store: Store
  /** Charged 2 CU per delivered event, to the subscription's account. */
  meter: Meter
  logger: Logger
  allowHttp?: boolean
  allowPrivate?: boolean
  /** Deliveries in flight at once (different subscriptions). Default 4. */
  concurrency?: number
  /** How often to look for due deliveries when idle. Default 200 ms. */
  pollIntervalMs?: number
  /** Per attempt. Default 10 000 (spec). */
  timeoutMs?: number
  /** Unix milliseconds; tests pass a compressed clock. Default `Date.now`. */
  now?: () => number
  lookup?: typeof dnsLookup
}

type Delivery = Selectable<WebhookDeliveryTable>
type Db = Kysely<Database>

const CU_PER_EVENT = 2

/**
 * The outbox's consumer. Claims the oldest due delivery of a subscription that has no older
 * pending one (block order per subscription), POSTs it, and records the outcome: delivered
 * (and charged), rescheduled on the retry schedule, or failed after the last retry.
 *
 * On PostgreSQL the claim is `SELECT … FOR UPDATE SKIP LOCKED`, committed with the attempt's
 * start (`markStarted`), then the row is locked again for the attempt: any number of workers,
 * in any processes, never take the same delivery, and one that dies mid-attempt leaves it due
 * again after the attempt's timeout. SQLite has one writer and one worker; claims are tracked
 * in memory. Either way a crash can repeat an attempt (the receiver deduplicates by
 * `scry-webhook-id`) but never loses one, nor a removal of what it may have received.
 */
export function createDeliveryWorker({
  store,
  meter,
  logger,
  allowHttp = false,
  allowPrivate = false,
  concurrency = 4,
  pollIntervalMs = 200,
  timeoutMs = 10_000,
  now = Date.now,
  lookup,
}: DeliveryWorkerOptions): DeliveryWorker {
  const rowLocks = store.caps.name === 'postgres'
  const busy = new Set<string>() // subscriptions with an attempt in flight here (SQLite)
  let claiming: Promise<void> = Promise.resolve()

  /**
   * Records, committed before the POST, that an attempt starts (`first_attempt_at`): a
   * receiver may act on a POST whose outcome is never recorded (the process killed
   * mid-attempt), so a reorg that reverts the block must tell it (`revertWebhookDeliveries`
   * queues a removal for every delivery an attempt started on). `next_attempt_at` moves past
   * the attempt's timeout, so no other worker claims it meanwhile; a worker that dies leaves
   * it due again after that.
   */
  async function markStarted(db: Db, delivery: Delivery): Promise<Delivery> {
    const first_attempt_at = delivery.first_attempt_at ?? now()
    const next_attempt_at = now() + timeoutMs + 5_000
    await db
      .updateTable('webhook_deliveries')
      .set({ first_attempt_at, next_attempt_at })
      .where('seq', '=', delivery.seq)
      .execute()
    return { ...delivery, first_attempt_at, next_attempt_at }
  }

  /** Claims and runs one delivery; false when nothing was due. */
  async function runOne(): Promise<boolean> {
    if (rowLocks) {
      const claimed = await store.db.transaction().execute(async (trx) => {
        const delivery = await claim(trx)
        return delivery && markStarted(trx, delivery)
      })
      if (!claimed) return false
      // Held for the attempt: no other worker takes it, and a revert of its block waits for
      // a retry's outcome (a first attempt's delivery it leaves queued, `markStarted`).
      await store.db.transaction().execute(async (trx) => {
        const delivery = await trx
          .selectFrom('webhook_deliveries')
          .selectAll()
          .where('seq', '=', claimed.seq)
          .where('status', '=', 'pending')
          .forUpdate()
          .executeTakeFirst()
        // Gone only if its subscription was deleted meanwhile (a revert keeps it: it was
        // marked started).
        if (delivery) await attempt(trx, delivery)
      })
      return true
    }
    // Claims in turn, so that two slots never take the same delivery.
    const claimed = claiming.then(() => claim(store.db))
    claiming = claimed.then(
      (d) => {
        if (d) busy.add(d.subscription_id)
      },
      () => {},
    )
    await claiming
    const delivery = await claimed
    if (!delivery) return false
    try {
      await attempt(store.db, await markStarted(store.db, delivery))
    } finally {
      busy.delete(delivery.subscription_id)
    }
    return true
  }

  async function claim(db: Db): Promise<Delivery | undefined> {
    let q = db
      .selectFrom('webhook_deliveries as d')
      .selectAll('d')
      .where('d.status', '=', 'pending')
      .where('d.next_attempt_at', '<=', now())
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('webhook_deliveries as e')
              .select('e.seq')
              .whereRef('e.subscription_id', '=', 'd.subscription_id')
              .where('e.status', '=', 'pending')
              .whereRef('e.seq', '<', 'd.seq'),
          ),
        ),
      )
    if (busy.size > 0) q = q.where('d.subscription_id', 'not in', [...busy])
    q = q.orderBy('d.seq').limit(1)
    return rowLocks ? q.forUpdate().skipLocked().executeTakeFirst() : q.executeTakeFirst()
  }

  async function attempt(db: Db, delivery: Delivery): Promise<void> {
    const sub = await db
      .selectFrom('webhook_subscriptions')
      .select(['webhook_url', 'secret'])
      .where('id', '=', delivery.subscription_id)
      .executeTakeFirst()
    if (!sub) {
      await db
        .updateTable('webhook_deliveries')
        .set({ status: 'cancelled' })
        .where('seq', '=', delivery.seq)
        .execute()
      return
    }
    const startedAt = now()
    // Not aborted by `signal`: an attempt in flight at shutdown finishes (at most `timeoutMs`)
    // and is recorded, since the receiver may already have handled a POST cut short, and it
    // would come again on the next start.
    const result: DeliveryAttempt = await postDelivery({
      url: sub.webhook_url,
      secret: sub.secret,
      body: delivery.payload,
      headers: {
        'scry-webhook-id': delivery.id,
        'scry-webhook-retry-index': String(delivery.attempts),
        'scry-webhook-subscription-id': delivery.subscription_id,
        'scry-webhook-type': delivery.type,
        'scry-webhook-chain-id': String(delivery.chain_id),
      },
      now: startedAt,
      allowHttp,
      allowPrivate,
      timeoutMs,
      ...(lookup ? { lookup } : {}),
    })
    const attempts = delivery.attempts + 1
    const firstAttemptAt = delivery.first_attempt_at ?? startedAt
    const time = now()
    const common = {
      attempts,
      first_attempt_at: firstAttemptAt,
      last_attempt_at: time,
      last_status: result.status ?? null,
    }
    let set: Partial<Delivery>
    if (result.ok) {
      set = { ...common, status: 'delivered', delivered_at: time, last_error: null }
    } else {
      const next = nextAttemptAt({ attempts, firstAttemptAt, now: time })
      set =
        next === undefined
          ? { ...common, status: 'failed', last_error: result.error }
          : { ...common, next_attempt_at: next, last_error: result.error }
    }
    await db
      .updateTable('webhook_deliveries')
      .set(set)
      .where('seq', '=', delivery.seq)
      .where('status', '=', 'pending')
      .executeTakeFirst()
    const log = { delivery_id: delivery.id, subscription_id: delivery.subscription_id }
    if (result.ok) {
      meter.charge({ accountId: delivery.account_id, cost: CU_PER_EVENT * delivery.event_count })
      logger.debug({ ...log, retry_index: delivery.attempts }, 'Webhook delivered')
    } else {
      logger.info(
        {
          ...log,
          retry_index: delivery.attempts,
          error: result.error,
          gave_up: set.status === 'failed',
        },
        'Webhook attempt failed',
      )
    }
  }

  return {
    async run(signal) {
      const idle = (ms = pollIntervalMs) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(done, ms)
          function done() {
            clearTimeout(timer)
            signal.removeEventListener('abort', done)
            resolve()
          }
          signal.addEventListener('abort', done, { once: true })
        })
      // Each slot claims one delivery at a time; a slow receiver holds one slot, not the rest.
      // A failing step (the database is down) is retried with backoff, up to 5 s apart, and
      // logged once per run of failures, not once per try.
      let failing = false
      const slot = async () => {
        let failures = 0
        while (!signal.aborted) {
          let worked = false
          try {
            worked = await runOne()
            failures = 0
            if (failing) {
              failing = false
              logger.info('Webhook worker recovered')
            }
          } catch (error) {
            if (signal.aborted) return
            failures++
            if (!failing) {
              failing = true
              logger.warn({ err: error }, 'Webhook worker step failed; retrying with backoff')
            }
          }
          if (failures > 0) await idle(Math.min(5_000, pollIntervalMs * 2 ** failures))
          else if (!worked) await idle()
        }
      }
      logger.info({ concurrency }, 'Delivering webhooks')
      await Promise.all(Array.from({ length: concurrency }, slot))
    },
  }
}
