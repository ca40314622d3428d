import { sql } from 'kysely'
import pg from 'pg'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { createTestApi } from '../../test/support/createTestApi.ts'
import { createTestStore, type TestStore } from '../../test/support/createTestStore.ts'
import { emptyBatch } from '../../test/support/emptyBatch.ts'
import { testChainConfig } from '../../test/support/testChain.ts'
import { silentLogger } from '../internal/logger.ts'
import { LEASE_APPLICATION, leaseKey } from '../store/leaseKey.ts'
import { type ChainLease, holdChainLease, LeaseLostError } from './holdChainLease.ts'

const CHAIN = 7

/** A batch of one empty block: enough to move the checkpoint. */
const batch = (n: number) => emptyBatch({ chainId: CHAIN, fromBlock: n })

async function until<T>(read: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const value = await read()
    if (value !== undefined) return value
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error('not within 5 s')
}

/** Ends the session that holds the chain's advisory lock, as a lost connection would. */
const cutLockSession = (t: TestStore) => {
  const key = leaseKey(CHAIN)
  return sql`select pg_terminate_backend(pid) from pg_locks
    where locktype = 'advisory' and granted
      and classid = ${Number(key >> 32n)} and objid = ${Number(key & 0xffffffffn)}`.execute(
    t.store.db,
  )
}

describe('holdChainLease (postgres)', () => {
  let t: TestStore
  const held: ChainLease[] = []
  const controller = new AbortController()
  const hold = async (
    nodeHead?: () => number | undefined,
    options: Partial<Parameters<typeof holdChainLease>[0]> = {},
  ) => {
    const lease = await holdChainLease({
      url: t.url,
      store: t.store,
      chainId: CHAIN,
      logger: silentLogger(),
      signal: controller.signal,
      retryMs: 100,
      heartbeatMs: 100,
      ...(nodeHead ? { nodeHead } : {}),
      ...options,
    })
    held.push(lease)
    return lease
  }
  beforeEach(async () => {
    t = await createTestStore('postgres')
  })
  afterEach(async () => {
    for (const lease of held.splice(0)) await lease.release()
    await t.drop()
  })

  test('behavior: one holder at a time; a standby takes over when the lock session ends, and the old holder can no longer commit', async () => {
    const first = await hold()
    await t.store.applyBatch(batch(0), first.fence)
    let second: ChainLease | undefined
    const waiting = hold().then((l) => {
      second = l
    })
    await new Promise((r) => setTimeout(r, 500))
    expect(second).toBeUndefined()

    await cutLockSession(t)
    await waiting
    expect(second?.owner).not.toBe(first.owner)
    const row = await t.store.db
      .selectFrom('indexer_leases')
      .selectAll()
      .where('chain_id', '=', CHAIN)
      .executeTakeFirstOrThrow()
    expect(row).toMatchObject({ owner: second?.owner, pid: process.pid })

    // The old holder, whatever it believes, writes nothing more; the new one does.
    await expect(t.store.applyBatch(batch(1), first.fence)).rejects.toBeInstanceOf(LeaseLostError)
    expect((await t.store.getCheckpoint(CHAIN))?.blockNumber).toBe(0)
    expect(first.lost.aborted).toBe(true)
    await t.store.applyBatch(batch(1), second!.fence)
    expect((await t.store.getCheckpoint(CHAIN))?.blockNumber).toBe(1)
  })

  test('behavior: a holder that stops reporting is cut off once its heartbeat is older than takeoverAfterSeconds, even frozen inside a write transaction; one that reports is not', async () => {
    const takeoverAfterSeconds = 2
    // Its heartbeat never comes (a process stopped by SIGSTOP looks the same to the others).
    const frozen = await hold(undefined, { heartbeatMs: 3_600_000, takeoverAfterSeconds })
    await t.store.applyBatch(batch(0), frozen.fence)
    // It stops inside a write, after its fence locked the lease row.
    let thaw = () => {}
    const stuck = t.store.db.transaction().execute(async (trx) => {
      await frozen.fence(trx)
      await new Promise<void>((r) => {
        thaw = r
      })
      await trx.selectFrom('indexer_leases').select('owner').execute()
    })
    stuck.catch(() => {})
    const asked = Date.now()
    const standby = await hold(undefined, { takeoverAfterSeconds })
    const waited = Date.now() - asked
    // Its heartbeat was last written when it took the lock, before the write.
    expect(waited).toBeGreaterThan(1_000)
    expect(waited).toBeLessThan(8_000)
    expect(standby.owner).not.toBe(frozen.owner)
    await until(async () => frozen.lost.aborted || undefined)
    thaw()
    await expect(stuck).rejects.toThrow()
    await expect(t.store.applyBatch(batch(1), frozen.fence)).rejects.toBeInstanceOf(LeaseLostError)
    await t.store.applyBatch(batch(1), standby.fence)
    expect((await t.store.getCheckpoint(CHAIN))?.blockNumber).toBe(1)

    // The new holder reports every 100 ms: another standby waits, well past the limit.
    const waiting = new AbortController()
    let other: ChainLease | undefined
    const next = hold(undefined, { signal: waiting.signal, takeoverAfterSeconds }).then(
      (lease) => {
        other = lease
      },
      () => {},
    )
    await new Promise((r) => setTimeout(r, 4_000))
    expect(other).toBeUndefined()
    expect(standby.lost.aborted).toBe(false)
    waiting.abort()
    await next
  }, 30_000)

  test("behavior: a silent lock session is ended only if it is an indexer's: `scry reset-chain`'s is not", async () => {
    for (const [application, cut] of [
      ['scry-reset', false],
      [LEASE_APPLICATION, true],
    ] as const) {
      // The last holder's row, silent for a minute; the lock held by a session of `application`.
      await t.store.db
        .insertInto('indexer_leases')
        .values({ chain_id: CHAIN, owner: 'gone', host: 'h', pid: 1, since: 0, stopped: null })
        .onConflict((oc) => oc.column('chain_id').doUpdateSet({ owner: 'gone' }))
        .execute()
      await sql`update indexer_leases set node_head_at = extract(epoch from now())::bigint - 60`.execute(
        t.store.db,
      )
      const other = new pg.Client({ connectionString: t.url, application_name: application })
      other.on('error', () => {})
      await other.connect()
      await other.query('select pg_advisory_lock($1::bigint)', [leaseKey(CHAIN).toString()])
      const ended = new Promise<boolean>((r) => {
        other.once('end', () => r(true))
        setTimeout(() => r(false), 3_000)
      })
      const waiting = new AbortController()
      const standby = hold(undefined, { signal: waiting.signal, takeoverAfterSeconds: 2 })
      standby.catch(() => {})
      expect(await ended, application).toBe(cut)
      if (cut) await standby
      else {
        waiting.abort()
        await standby.catch(() => {})
        await other.end()
      }
    }
  })

  test('behavior: a holder whose row names another owner is refused in the same transaction, before it notices anything', async () => {
    const lease = await hold()
    await t.store.db
      .updateTable('indexer_leases')
      .set({ owner: 'someone-else' })
      .where('chain_id', '=', CHAIN)
      .execute()
    expect(lease.lost.aborted).toBe(false)
    await expect(t.store.applyBatch(batch(0), lease.fence)).rejects.toBeInstanceOf(LeaseLostError)
    await expect(
      t.store.revert({ chainId: CHAIN, toBlock: 0, fence: lease.fence }),
    ).rejects.toBeInstanceOf(LeaseLostError)
    expect(await t.store.getCheckpoint(CHAIN)).toBeUndefined()
    expect(lease.lost.aborted).toBe(true)
  })

  test('behavior: the holder reports the node head; an API process that indexes nothing shows it, and /ready follows the lag threshold', async () => {
    await t.store.applyBatch(batch(100), (await hold(() => 150)).fence)
    const chains = [testChainConfig({ chainId: CHAIN, rpc: ['http://127.0.0.1:9'] })]
    const api = (max: number | undefined) =>
      createTestApi({ store: t.store, chains, overrides: { readyMaxLagBlocks: max } })
    const lenient = await api(60)
    const strict = await api(40)
    try {
      const status = await until(async () => {
        const r = await lenient.get('/v1/status')
        return r.body.chains[0].node_head === 150 ? r.body.chains[0] : undefined
      })
      expect(status).toMatchObject({ indexed_block: 100, node_head: 150, lag_blocks: 50 })
      expect(status.indexer).toMatchObject({ pid: process.pid, active: true })
      expect((await lenient.get('/ready', { key: null })).status).toBe(200)
      const unready = await strict.get('/ready', { key: null })
      expect([unready.status, unready.body.error]).toEqual([
        503,
        {
          code: 'UNAVAILABLE',
          message:
            "Every chain is more than 40 blocks behind its node, or its node's head is unknown (server.readyMaxLagBlocks).",
        },
      ])
    } finally {
      await lenient.close()
      await strict.close()
    }
  })

  test("behavior: when the holder's node goes away its head is reported as unknown, and /ready with a lag threshold is 503", async () => {
    let head: number | undefined = 150
    await t.store.applyBatch(batch(100), (await hold(() => head)).fence)
    const chains = [testChainConfig({ chainId: CHAIN, rpc: ['http://127.0.0.1:9'] })]
    const api = await createTestApi({
      store: t.store,
      chains,
      overrides: { readyMaxLagBlocks: 60 },
    })
    try {
      const nodeHead = async () => (await api.get('/v1/status')).body.chains[0].node_head
      await until(async () => (await nodeHead()) === 150 || undefined)
      expect((await api.get('/ready', { key: null })).status).toBe(200)
      head = undefined
      await until(async () => (await nodeHead()) === null || undefined)
      const unready = await api.get('/ready', { key: null })
      expect(unready.status).toBe(503)
      expect((await api.get('/v1/status')).body.chains[0]).toMatchObject({
        lag_blocks: null,
        indexer: { active: true },
      })
    } finally {
      await api.close()
    }
  })
})
