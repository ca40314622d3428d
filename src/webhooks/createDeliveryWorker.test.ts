import type { Transaction } from 'kysely'
import { afterEach, describe, expect, test } from 'vitest'
import { createTestStore, DIALECTS, type TestStore } from '../../test/support/createTestStore.ts'
import { createWebhookReceiver } from '../../test/support/createWebhookReceiver.ts'
import { createMeter } from '../accounts/createMeter.ts'
import { silentLogger } from '../internal/logger.ts'
import type { RowWriter } from '../store/createRowWriter.ts'
import type { Store } from '../store/createStore.ts'
import type { Database } from '../store/schema.ts'
import { createDeliveryWorker, type DeliveryWorkerOptions } from './createDeliveryWorker.ts'
import { createSubscriptions } from './createSubscriptions.ts'
import { revertWebhookDeliveries } from './revertWebhookDeliveries.ts'
import { verifyWebhookSignature } from './signWebhook.ts'

const ADDRESS = '0x00000000000000000000000000000000000000a1'

/** Time runs `factor` times faster than the wall clock: a day of retries in well under a second. */
function compressedClock(factor: number) {
  const start = Date.now()
  return () => start + (Date.now() - start) * factor
}

async function subscribe(store: Store, url: string, accountId = 'acct') {
  const subs = createSubscriptions({
    store,
    policy: { allowHttp: true, allowPrivate: true },
    enabledChains: new Set([1]),
  })
  return subs.create({
    accountId,
    input: { webhook_url: url, type: 'activities', chain_ids: [1], addresses: [ADDRESS] },
  })
}

let counter = 0
async function queue(store: Store, sub: { id: string; accountId: string }, block: number) {
  const id = `delivery-${++counter}-${block}`
  await store.db
    .insertInto('webhook_deliveries')
    .values({
      id,
      subscription_id: sub.id,
      account_id: sub.accountId,
      chain_id: 1,
      block_number: block,
      type: 'activities',
      payload: JSON.stringify({ activities: [{ block_number: block }, { block_number: block }] }),
      event_count: 2,
      removed: 0,
      reverted: 0,
      status: 'pending',
      attempts: 0,
      next_attempt_at: 0,
      created_at: Date.now(),
    })
    .execute()
  return id
}

function startWorker(options: Omit<DeliveryWorkerOptions, 'logger' | 'meter'> & { meter?: any }) {
  const controller = new AbortController()
  const meter = options.meter ?? createMeter({ store: options.store })
  const done = createDeliveryWorker({
    allowHttp: true,
    allowPrivate: true,
    pollIntervalMs: 20,
    logger: silentLogger(),
    ...options,
    meter,
  }).run(controller.signal)
  return {
    meter,
    async stop() {
      controller.abort()
      await done
    },
  }
}

async function delivery(store: Store, id: string) {
  return store.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
}

for (const dialect of DIALECTS) {
  describe(`delivery worker (${dialect})`, () => {
    let t: TestStore
    const closers: (() => Promise<void>)[] = []
    afterEach(async () => {
      for (const close of closers.splice(0).reverse()) await close()
      await t?.drop()
    })

    test('behavior: an attempt is on record before its POST goes out, so a worker killed mid-attempt leaves what a revert needs to send the removal', async () => {
      t = await createTestStore(dialect)
      const receiver = await createWebhookReceiver({ respond: () => 'hang' })
      closers.push(receiver.close)
      const sub = await subscribe(t.store, receiver.url)
      const id = await queue(t.store, sub, 7)
      const worker = startWorker({ store: t.store, timeoutMs: 2_000 })
      closers.push(worker.stop)
      await receiver.until((r) => r.length === 1)
      // The POST is out and unanswered: what a kill now would leave in the store.
      const inFlight = await delivery(t.store, id)
      expect(inFlight).toMatchObject({ status: 'pending', attempts: 0 })
      expect(inFlight.first_attempt_at).not.toBeNull()
      // No other claim of it meanwhile (the attempt's timeout has not passed).
      expect(inFlight.next_attempt_at).toBeGreaterThan(Date.now())
      await worker.stop()
      const { seq: _, ...row } = inFlight
      await t.store.db
        .insertInto('webhook_deliveries')
        .values({ ...row, id: `${id}-killed` })
        .execute()
      // The revert's own row writer is the store's; plain inserts do here.
      const writer = {
        async insert(trx: Transaction<Database>, table: 'webhook_deliveries', rows: unknown[]) {
          if (rows.length > 0)
            await trx
              .insertInto(table)
              .values(rows as never)
              .execute()
        },
      } as unknown as RowWriter
      await t.store.db
        .transaction()
        .execute((trx) => revertWebhookDeliveries({ trx, writer, chainId: 1, afterBlock: 6 }))
      const rows = await t.store.db
        .selectFrom('webhook_deliveries')
        .select(['id', 'status', 'removed'])
        .orderBy('seq')
        .execute()
      // Both the attempt that timed out and the one a kill would have left are retracted; the
      // latter goes out again first (its outcome is unknown), then its removal.
      expect(rows).toEqual([
        { id, status: 'cancelled', removed: 0 },
        { id: `${id}-killed`, status: 'pending', removed: 0 },
        { id: expect.any(String), status: 'pending', removed: 1 },
        { id: expect.any(String), status: 'pending', removed: 1 },
      ])
    })

    test('behavior: a receiver failing three times then succeeding sees retry indexes 0–3, one id, a valid signature; 2 CU per event', async () => {
      t = await createTestStore(dialect)
      const receiver = await createWebhookReceiver({
        respond: (_r, i) => ({ status: i < 3 ? 503 : 200 }),
      })
      closers.push(receiver.close)
      const sub = await subscribe(t.store, receiver.url)
      const id = await queue(t.store, sub, 7)
      const worker = startWorker({ store: t.store, now: compressedClock(100_000) })
      closers.push(worker.stop)
      await receiver.until((r) => r.length === 4)
      await waitFor(async () => (await delivery(t.store, id)).status === 'delivered')
      await worker.stop()
      const got = receiver.received
      expect(got.map((r) => r.headers['scry-webhook-retry-index'])).toEqual(['0', '1', '2', '3'])
      expect(new Set(got.map((r) => r.headers['scry-webhook-id']))).toEqual(new Set([id]))
      for (const r of got) {
        expect(r.headers).toMatchObject({
          'content-type': 'application/json',
          'scry-webhook-subscription-id': sub.id,
          'scry-webhook-type': 'activities',
          'scry-webhook-chain-id': '1',
        })
        expect(r.headers['scry-webhook-timestamp']).toMatch(
          /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/,
        )
        const header = String(r.headers['scry-webhook-signature'])
        expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
        expect(verifyWebhookSignature({ secret: sub.secret, body: r.raw, header })).toBe(true)
        expect(verifyWebhookSignature({ secret: 'whsec_other', body: r.raw, header })).toBe(false)
      }
      expect(got[0]?.body).toEqual({ activities: [{ block_number: 7 }, { block_number: 7 }] })
      expect(await delivery(t.store, id)).toMatchObject({
        status: 'delivered',
        attempts: 4,
        last_status: 200,
      })
      await worker.meter.flush()
      const usage = await t.store.db.selectFrom('usage').selectAll().execute()
      expect(usage.map((u) => [u.account_id, Number(u.cu_used)])).toEqual([['acct', 4]])
    })

    test('behavior: a receiver that never answers is given up on after five retries; the failed delivery is listed and can be redelivered', async () => {
      t = await createTestStore(dialect)
      let hang = true
      const receiver = await createWebhookReceiver({
        respond: () => (hang ? 'hang' : { status: 204 }),
      })
      closers.push(receiver.close)
      const sub = await subscribe(t.store, receiver.url)
      const id = await queue(t.store, sub, 3)
      const worker = startWorker({
        store: t.store,
        now: compressedClock(20_000),
        timeoutMs: 150,
      })
      closers.push(worker.stop)
      const subs = createSubscriptions({
        store: t.store,
        policy: { allowHttp: true, allowPrivate: true },
        enabledChains: new Set([1]),
      })
      const until = Date.now() + 20_000
      while ((await delivery(t.store, id)).status !== 'failed' && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 50))
      }
      const failed = await delivery(t.store, id)
      expect(failed).toMatchObject({ status: 'failed', attempts: 6 })
      expect(failed.last_error).toMatch(/No answer from 127\.0\.0\.1:\d+ within 150 ms/)
      // The six attempts spread over less than a day of (compressed) time.
      expect(Number(failed.last_attempt_at) - Number(failed.first_attempt_at)).toBeLessThan(
        24 * 3600 * 1000,
      )
      expect(receiver.received.map((r) => r.headers['scry-webhook-retry-index'])).toEqual([
        '0',
        '1',
        '2',
        '3',
        '4',
        '5',
      ])
      const listed = await subs.deliveries({
        accountId: 'acct',
        id: sub.id,
        status: 'failed',
        limit: 10,
      })
      expect(listed?.map((d) => d.id)).toEqual([id])
      expect(await subs.redeliver({ accountId: 'other', id: sub.id, deliveryId: id })).toBe(
        'not_found',
      )
      hang = false
      expect(await subs.redeliver({ accountId: 'acct', id: sub.id, deliveryId: id })).toMatchObject(
        { status: 'pending', attempts: 0 },
      )
      await receiver.until((r) => r.length === 7)
      expect(receiver.received[6]?.headers['scry-webhook-id']).toBe(id)
      expect(receiver.received[6]?.headers['scry-webhook-retry-index']).toBe('0')
    })

    test('behavior: a stop while an attempt is in flight lets it finish and records it (no repeat on the next start)', async () => {
      t = await createTestStore(dialect)
      const receiver = await createWebhookReceiver({
        respond: () => ({ status: 200, delayMs: 500 }),
      })
      closers.push(receiver.close)
      const sub = await subscribe(t.store, receiver.url)
      const id = await queue(t.store, sub, 7)
      const worker = startWorker({ store: t.store })
      await receiver.until((r) => r.length === 1)
      // The receiver has the POST and answers in 500 ms; the process is told to stop now.
      await worker.stop()
      expect(await delivery(t.store, id)).toMatchObject({ status: 'delivered', attempts: 1 })
      // Started again: nothing is sent twice.
      const again = startWorker({ store: t.store })
      await new Promise((r) => setTimeout(r, 300))
      await again.stop()
      expect(receiver.received.map((r) => r.headers['scry-webhook-id'])).toEqual([id])
    })

    test('behavior: block order per subscription, and a slow receiver does not hold up another', async () => {
      t = await createTestStore(dialect)
      const slow = await createWebhookReceiver({ respond: () => ({ status: 200, delayMs: 800 }) })
      const fast = await createWebhookReceiver()
      closers.push(slow.close, fast.close)
      const a = await subscribe(t.store, slow.url)
      const b = await subscribe(t.store, fast.url)
      for (const block of [1, 2, 3]) {
        await queue(t.store, a, block)
        await queue(t.store, b, block)
      }
      const worker = startWorker({ store: t.store, concurrency: 4 })
      closers.push(worker.stop)
      await fast.until((r) => r.length === 3, 5_000)
      // The fast receiver got everything while the slow one was still on its first.
      expect(slow.received.length).toBe(1)
      await slow.until((r) => r.length === 3, 10_000)
      expect(slow.received.map((r) => r.body.activities[0].block_number)).toEqual([1, 2, 3])
      expect(fast.received.map((r) => r.body.activities[0].block_number)).toEqual([1, 2, 3])
    })

    test('error: private addresses are refused at delivery time and redirects are not followed', async () => {
      t = await createTestStore(dialect)
      const redirecting = await createWebhookReceiver({ respond: () => ({ status: 200 }) })
      closers.push(redirecting.close)
      // Created while private addresses were allowed; the worker does not allow them.
      const sub = await subscribe(t.store, redirecting.url)
      const id = await queue(t.store, sub, 1)
      const worker = startWorker({ store: t.store, allowPrivate: false })
      closers.push(worker.stop)
      const until = Date.now() + 5_000
      while ((await delivery(t.store, id)).attempts === 0 && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 20))
      }
      await worker.stop()
      expect((await delivery(t.store, id)).last_error).toBe(
        'Refused to fetch from a private address (127.0.0.1:' +
          new URL(redirecting.url).port +
          ').',
      )
      expect(redirecting.received).toEqual([])

      const redirect = await createRedirector('http://10.0.0.1/hook')
      closers.push(redirect.close)
      await t.store.db
        .updateTable('webhook_subscriptions')
        .set({ webhook_url: redirect.url })
        .execute()
      await t.store.db
        .updateTable('webhook_deliveries')
        .set({ next_attempt_at: 0 })
        .where('id', '=', id)
        .execute()
      const second = startWorker({ store: t.store })
      closers.push(second.stop)
      const until2 = Date.now() + 5_000
      while ((await delivery(t.store, id)).attempts < 2 && Date.now() < until2) {
        await new Promise((r) => setTimeout(r, 20))
      }
      expect(await delivery(t.store, id)).toMatchObject({
        status: 'pending',
        attempts: 2,
        last_error: expect.stringMatching(
          /^HTTP 302 redirect from 127\.0\.0\.1:\d+, not followed\.$/,
        ),
      })
    })

    if (dialect === 'postgres') {
      test('behavior: several workers never deliver one delivery twice', async () => {
        t = await createTestStore(dialect)
        const receiver = await createWebhookReceiver({
          respond: () => ({ status: 200, delayMs: 20 }),
        })
        closers.push(receiver.close)
        const ids: string[] = []
        for (let s = 0; s < 8; s++) {
          const sub = await subscribe(t.store, receiver.url)
          for (let block = 0; block < 5; block++) ids.push(await queue(t.store, sub, block))
        }
        const workers = [0, 1, 2].map(() => startWorker({ store: t.store, concurrency: 3 }))
        for (const w of workers) closers.push(w.stop)
        await receiver.until((r) => r.length >= ids.length)
        await new Promise((r) => setTimeout(r, 300))
        const seen = receiver.received.map((r) => String(r.headers['scry-webhook-id']))
        expect(seen.length).toBe(ids.length)
        expect(new Set(seen)).toEqual(new Set(ids))
      })
    }
  })
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met')
    await new Promise((r) => setTimeout(r, 20))
  }
}

async function createRedirector(location: string) {
  const { createServer } = await import('node:http')
  const server = createServer((_req, res) => res.writeHead(302, { location }).end())
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const port = (server.address() as { port: number }).port
  return {
    url: `http://127.0.0.1:${port}/hook`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}
