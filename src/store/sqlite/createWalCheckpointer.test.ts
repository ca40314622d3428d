import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestStore } from '../../../test/support/createTestStore.ts'
import { openDatabase } from '../openDatabase.ts'
import { createWalCheckpointer } from './createWalCheckpointer.ts'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A SQLite file as the store opens it, with ~4 MB committed to its log and none copied back. */
function openWritten() {
  const dir = mkdtempSync(join(tmpdir(), 'scry-wal-'))
  dirs.push(dir)
  const file = join(dir, 'scry.db')
  const { sqlite } = openDatabase({ url: file })
  if (!sqlite) throw new Error('expected SQLite')
  sqlite.exec('create table t (id integer primary key, data blob)')
  const insert = sqlite.prepare('insert into t (data) values (?)')
  // Raised first so that SQLite's own rule copies nothing back during the write.
  sqlite.pragma('wal_autocheckpoint = 100000')
  sqlite.transaction(() => {
    for (let i = 0; i < 1000; i++) insert.run(Buffer.alloc(4000, i % 256))
  })()
  return { file, sqlite }
}

async function waitFor(check: () => boolean, ms = 10_000): Promise<boolean> {
  const until = Date.now() + ms
  while (Date.now() < until) {
    if (check()) return true
    await new Promise((r) => setTimeout(r, 20))
  }
  return check()
}

describe('createWalCheckpointer', () => {
  it("copies the committed log into the database file on its own thread, the writer's rule raised", async () => {
    const { file, sqlite } = openWritten()
    const checkpointer = createWalCheckpointer({ sqlite, file })
    // Nothing is copied before a request: the database file holds only the table's first pages.
    await new Promise((r) => setTimeout(r, 200))
    expect(statSync(file).size).toBeLessThan(100_000)
    checkpointer.request()
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(20_000)
    expect(await waitFor(() => statSync(file).size > 4_000_000)).toBe(true)
    // Every frame was copied: the writer's next transaction starts the log over.
    const [status] = sqlite.pragma('wal_checkpoint(PASSIVE)') as {
      log: number
      checkpointed: number
    }[]
    expect(status?.checkpointed).toBe(status?.log)
    await checkpointer.close()
    // Closed: the writer checkpoints by SQLite's own rule again, and no thread starts anew.
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1000)
    checkpointer.request()
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1000)
    expect(sqlite.prepare('select count(*) as n from t').get()).toEqual({ n: 1000 })
    sqlite.close()
  })

  it('runs a request made within the interval once the interval is over, never drops it', async () => {
    const { file, sqlite } = openWritten()
    const checkpointer = createWalCheckpointer({ sqlite, file, minIntervalMs: 1_500 })
    const first = performance.now()
    checkpointer.request()
    expect(await waitFor(() => statSync(file).size > 4_000_000)).toBe(true)
    // ~4 MB more, committed and asked for within the interval: copied back only at its end.
    const insert = sqlite.prepare('insert into t (data) values (?)')
    sqlite.transaction(() => {
      for (let i = 0; i < 1000; i++) insert.run(Buffer.alloc(4000, i % 256))
    })()
    checkpointer.request()
    checkpointer.request()
    expect(await waitFor(() => statSync(file).size > 8_000_000)).toBe(true)
    expect(performance.now() - first).toBeGreaterThan(1_400)
    await checkpointer.close()
    sqlite.close()
  })

  it("falls back to SQLite's own rule when its thread cannot open the database", async () => {
    const { sqlite } = openWritten()
    const checkpointer = createWalCheckpointer({ sqlite, file: '/nonexistent/scry.db' })
    checkpointer.request()
    expect(
      await waitFor(() => sqlite.pragma('wal_autocheckpoint', { simple: true }) === 1000),
    ).toBe(true)
    // Later requests are dropped: no thread is started again.
    checkpointer.request()
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1000)
    await checkpointer.close()
    sqlite.close()
  })

  it('keeps a process that awaits its close alive until the thread has exited', () => {
    // A process ending on `await store.close()` (scry start after SIGTERM): were the thread
    // left unreferenced, the event loop would empty first and Node exit with code 13.
    const dir = mkdtempSync(join(tmpdir(), 'scry-wal-'))
    dirs.push(dir)
    const module = fileURLToPath(new URL('./createWalCheckpointer.ts', import.meta.url))
    const opener = fileURLToPath(new URL('../openDatabase.ts', import.meta.url))
    const script = `
      const { openDatabase } = await import(${JSON.stringify(opener)})
      const { createWalCheckpointer } = await import(${JSON.stringify(module)})
      const file = ${JSON.stringify(join(dir, 'scry.db'))}
      const { sqlite } = openDatabase({ url: file })
      sqlite.exec('create table t (x)')
      const checkpointer = createWalCheckpointer({ sqlite, file })
      checkpointer.request()
      await checkpointer.close()
      console.log('closed')
    `
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { encoding: 'utf8', timeout: 30_000 },
    )
    expect(child.stderr).toBe('')
    expect(child.stdout.trim()).toBe('closed')
    expect(child.status).toBe(0)
  })

  it("is started by a SQLite store's first chain write, not before", async () => {
    const { store, drop } = await createTestStore('sqlite')
    const rule = async () =>
      (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(store.db))
        .rows[0]?.wal_autocheckpoint
    // Migrations and reads leave SQLite's own rule.
    await store.getCheckpoint(1)
    expect(await rule()).toBe(1000)
    // `revert` goes through the same transaction helper as `applyBatch`.
    await store.revert({ chainId: 1, toBlock: 0 })
    expect(await rule()).toBe(20_000)
    await drop()
  })

  it('closes without ever having started', async () => {
    const { file, sqlite } = openWritten()
    await createWalCheckpointer({ sqlite, file }).close()
    expect(statSync(file).size).toBeLessThan(100_000)
    sqlite.close()
  })
})
