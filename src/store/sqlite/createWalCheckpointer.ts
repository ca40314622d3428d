import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type { Database as SqliteDatabase } from 'better-sqlite3'

export type WalCheckpointer = {
  /**
   * Asks for a checkpoint of what has been committed so far; returns at once. Within
   * `minIntervalMs` of the last one it runs when the interval ends (requests meanwhile join it).
   */
  request(): void
  /** Stops the thread (after the checkpoint it is running) and closes its connection. */
  close(): Promise<void>
}

/**
 * Copies a SQLite file's write-ahead log into the database on a thread of its own, so that the
 * connection that writes batches never does. SQLite's own rule (`wal_autocheckpoint`) runs a
 * checkpoint inside the commit that takes the log past 1,000 pages: the indexer's thread copied
 * pages and waited on `fsync` there, longer as the file grew (a backfill of 200,000 transfers
 * took 65 s with this thread, 81–88 s without: bench/README.md, 2026-11-27, fourth session).
 * The thread starts at the first request, with its own connection;
 * `wal_checkpoint(PASSIVE)` copies what is committed without waiting for readers or the writer.
 * While it runs, the writer's own rule is raised to `FALLBACK_PAGES`: it still checkpoints should
 * the log grow that far (a checkpoint that cannot finish, a thread that fell behind). Once the
 * thread fails or is closed, the writer's rule goes back to SQLite's default and requests are
 * dropped. Checkpoints run at most once a second: a backfill commits several batches a second,
 * and pages that each of them rewrites (index pages, balances) were copied back after every one
 * (the thread's CPU at 20,000 transfers 876 → 432 ms, bench/README.md 2026-11-27, sixth
 * session); a chain followed at its head is checkpointed after each batch, unless its batches
 * come faster than one a second.
 */
export function createWalCheckpointer({
  sqlite,
  file,
  minIntervalMs = MIN_INTERVAL_MS,
}: {
  sqlite: SqliteDatabase
  file: string
  /** A request sooner than this after the last checkpoint waits for the interval's end. */
  minIntervalMs?: number
}): WalCheckpointer {
  let worker: Worker | undefined
  /** Failed or closed: requests are dropped, and the writer checkpoints by SQLite's rule. */
  let stopped = false
  let exited: Promise<void> | undefined
  const ownRule = () => {
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${DEFAULT_PAGES}`)
  }

  const start = (): Worker => {
    const started = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file, driver: createRequire(import.meta.url).resolve('better-sqlite3') },
    })
    // The thread never keeps the process alive: a store left open must not hang an exit.
    started.unref()
    exited = new Promise((resolve) => started.once('exit', () => resolve()))
    const fail = () => {
      if (worker !== started) return
      worker = undefined
      stopped = true
      ownRule()
    }
    started.once('error', fail)
    started.once('exit', fail)
    sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_PAGES}`)
    return started
  }

  /** When a checkpoint was last asked of the thread, and the one waiting for its turn. */
  let lastPosted = Number.NEGATIVE_INFINITY
  let waiting: ReturnType<typeof setTimeout> | undefined
  const post = () => {
    waiting = undefined
    if (stopped || !worker) return
    lastPosted = performance.now()
    worker.postMessage('checkpoint')
  }

  return {
    request() {
      if (stopped || !sqlite.open) return
      worker ??= start()
      const wait = lastPosted + minIntervalMs - performance.now()
      if (wait <= 0) post()
      else waiting ??= setTimeout(post, wait).unref()
    },
    async close() {
      stopped = true
      clearTimeout(waiting)
      const running = worker
      worker = undefined
      if (!running) return
      // Held until it has exited: an unreferenced thread would let the event loop empty first.
      running.ref()
      running.postMessage('close')
      await exited
      ownRule()
    },
  }
}

/**
 * Checkpoints are asked at most this often: a page that several batches in a row rewrite
 * (index pages, balances) is then copied back once, not after each batch.
 */
const MIN_INTERVAL_MS = 1_000

/** SQLite's default `wal_autocheckpoint`. */
const DEFAULT_PAGES = 1000
/** ~80 MB of 4 KiB pages: a few batches' worth, far more than one. */
const FALLBACK_PAGES = 20_000

/**
 * The thread's code, plain CommonJS run with `eval` (no loader needed under tsx, vitest or the
 * compiled build). Messages are handled one at a time; requests that queued while a checkpoint
 * ran find little or nothing left to copy.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
const db = new Database(workerData.file, { fileMustExist: true })
db.pragma('synchronous = NORMAL')
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close()
    parentPort.close()
    return
  }
  db.pragma('wal_checkpoint(PASSIVE)')
})
`
