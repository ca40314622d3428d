import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import { sql } from 'kysely'
import pg from 'pg'
import { GLOBAL_DEFAULTS } from '../config/fields.ts'
import { NonRetryableError } from '../internal/errors.ts'
import type { Logger } from '../internal/logger.ts'
import type { Fence, Store } from '../store/createStore.ts'
import { endSilentHolder, type SilentHolder } from '../store/endSilentHolder.ts'
import { LEASE_APPLICATION, leaseKey } from '../store/leaseKey.ts'
import { sleep } from '../utils/sleep.ts'

export class LeaseLostError extends NonRetryableError {
  override name = 'LeaseLostError'
}

/** The right to write one chain, held until `lost` aborts or `release()`. */
export type ChainLease = {
  owner: string
  fence: Fence
  /** Aborts when the lock's connection is gone or another process took the chain. */
  lost: AbortSignal
  /**
   * Records why this holder stops indexing the chain (a reorg past finality), for processes
   * that do not index it (`indexer_leases.stopped`); the next holder clears it.
   */
  recordStop(why: string): Promise<void>
  release(): Promise<void>
}

/**
 * Waits until this process holds chain `chainId` on PostgreSQL, then returns the lease.
 * Holding it is a session-level advisory lock on a connection of its own (released by the
 * server the moment that session ends: a killed process, a cut connection); while it waits,
 * the process is a hot standby that tries every `retryMs`. On taking the lock it writes
 * itself into `indexer_leases` (who holds each chain, for status) with a new owner token.
 * Every write of the chain runs `fence` in its transaction: it locks that row and refuses
 * unless the token is still its own, so a process that lost the lock (and may not know yet)
 * can never commit after the next holder took over.
 *
 * A holder whose heartbeat is more than `takeoverAfterSeconds` old keeps its lock but does
 * nothing with it (stopped by a signal, a paused machine): the standby ends its lock session
 * (`endSilentHolder`) and takes the chain. A write transaction the holder froze in would keep
 * the row the fence locks, so the fence also asks the server to end the transaction's session
 * once it has been idle for half that time.
 */
export async function holdChainLease({
  url,
  store,
  chainId,
  logger,
  signal,
  nodeHead = () => undefined,
  retryMs = 1_000,
  heartbeatMs = 1_000,
  takeoverAfterSeconds = GLOBAL_DEFAULTS.standbyTakeoverSeconds,
}: {
  url: string
  store: Store
  chainId: number
  logger: Logger
  signal: AbortSignal
  /** The node's head as the indexer last saw it: reported with each heartbeat. */
  nodeHead?: () => number | undefined
  retryMs?: number
  heartbeatMs?: number
  /** A holder without a heartbeat for longer than this is cut off (at least 2). */
  takeoverAfterSeconds?: number
}): Promise<ChainLease> {
  const key = leaseKey(chainId).toString()
  const idleMs = takeoverAfterSeconds * 500
  let waiting = false
  let cutFailed = false
  for (;;) {
    signal.throwIfAborted()
    const client = new pg.Client({ connectionString: url, application_name: LEASE_APPLICATION })
    client.on('error', () => {})
    let held = false
    try {
      await client.connect()
      const { rows } = await client.query<{ ok: boolean }>(
        'select pg_try_advisory_lock($1::bigint) as ok',
        [key],
      )
      held = rows[0]?.ok === true
    } catch (error) {
      logger.warn({ err: error }, 'Could not ask for the chain lock; trying again')
    }
    if (held) {
      try {
        return await take({ client, store, chainId, key, logger, nodeHead, heartbeatMs, idleMs })
      } catch (error) {
        // Could not record itself (the database went away): let go, and try again.
        logger.warn({ err: error }, 'Could not take the chain lock; trying again')
      }
    }
    await client.end().catch(() => {})
    if (!waiting) {
      waiting = true
      logger.info('Another indexer holds this chain; standing by')
    }
    let silent: SilentHolder | undefined
    try {
      silent = await endSilentHolder(store, { chainId, afterSeconds: takeoverAfterSeconds })
      cutFailed = false
    } catch (error) {
      // Said once for a run of failures: the next tries say nothing new.
      if (!cutFailed) {
        logger.warn(
          { err: error },
          'Could not check whether the chain lock holder still reports (if it is "permission denied", grant this role pg_signal_backend)',
        )
      }
      cutFailed = true
    }
    if (silent) {
      logger.warn(
        { holder_host: silent.host, holder_pid: silent.pid, silent_seconds: silent.silentSeconds },
        `The holder of this chain has not reported for ${silent.silentSeconds} s: ended its lock session to take over`,
      )
      // Then at once (the server ends that session within moments).
      await sleep(Math.min(retryMs, 100), signal)
      continue
    }
    await sleep(retryMs, signal)
  }
}

async function take({
  client,
  store,
  chainId,
  key,
  logger,
  nodeHead,
  heartbeatMs,
  idleMs,
}: {
  client: pg.Client
  store: Store
  chainId: number
  key: string
  logger: Logger
  nodeHead: () => number | undefined
  heartbeatMs: number
  /** A write transaction idle this long has its session ended by the server. */
  idleMs: number
}): Promise<ChainLease> {
  const owner = randomUUID()
  const since = Math.floor(Date.now() / 1000)
  const row = {
    chain_id: chainId,
    owner,
    host: hostname(),
    pid: process.pid,
    since,
    stopped: null,
    // A heartbeat now (the database's clock): the last holder's, stale, would get this one
    // cut by another standby before its own first beat.
    node_head: null,
    node_head_at: sql<number>`extract(epoch from now())::bigint`,
  }
  // Waits for a commit of the previous holder that already has the row: it lands first.
  // (A lock session that dies meanwhile is caught by the first heartbeat below.)
  await store.db
    .insertInto('indexer_leases')
    .values(row)
    .onConflict((oc) => oc.column('chain_id').doUpdateSet(row))
    .execute()
  const controller = new AbortController()
  const lose = (reason: string) => {
    if (controller.signal.aborted) return
    logger.warn({ reason }, 'Lost the chain lock: stopped writing this chain')
    controller.abort(new LeaseLostError(`Lost the lock of chain ${chainId} (${reason}).`))
  }
  client.on('error', (error) => lose(error.message))
  client.on('end', () => lose('lock connection closed'))
  // The server may cut an idle session without the socket saying so at once: ask it, and
  // report the node's head for processes that do not index the chain (status, /ready).
  // An unknown head (not yet, or the node went away) is reported as null, not left as it was.
  const heartbeat = setInterval(() => {
    const head = nodeHead() ?? null
    // The database's clock (readIndexerHolders compares with it): no skew between machines.
    const query = client.query(
      'update indexer_leases set node_head = $1, node_head_at = extract(epoch from now())::bigint where chain_id = $2 and owner = $3',
      [head, chainId, owner],
    )
    query.catch((error: Error) => lose(error.message))
  }, heartbeatMs)
  heartbeat.unref()
  controller.signal.addEventListener('abort', () => clearInterval(heartbeat), { once: true })

  logger.info({ owner, pid: process.pid }, 'Holding the chain lock: indexing')

  return {
    owner,
    lost: controller.signal,
    async fence(trx) {
      const current = await trx
        .selectFrom('indexer_leases')
        .select('owner')
        // Frozen inside this transaction, the process would keep the row locked (and the
        // next holder waiting in `take`) after its lock session is cut.
        .select(
          sql`set_config('idle_in_transaction_session_timeout', ${String(idleMs)}, true)`.as(
            'idle',
          ),
        )
        .where('chain_id', '=', chainId)
        .forUpdate()
        .executeTakeFirst()
      if (current?.owner !== owner) {
        lose('another indexer took the chain')
        throw new LeaseLostError(`Chain ${chainId} is held by another indexer now.`)
      }
      if (controller.signal.aborted) throw controller.signal.reason
    },
    async recordStop(why) {
      await client.query(
        'update indexer_leases set stopped = $1 where chain_id = $2 and owner = $3',
        [why, chainId, owner],
      )
    },
    async release() {
      clearInterval(heartbeat)
      controller.abort(new LeaseLostError(`Released the lock of chain ${chainId}.`))
      await client.query('select pg_advisory_unlock($1::bigint)', [key]).catch(() => {})
      await client.end().catch(() => {})
    },
  }
}
