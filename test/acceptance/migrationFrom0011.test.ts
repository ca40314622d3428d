import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createStore, type Store } from '../../src/store/createStore.ts'
import { bytesToHex } from '../../src/store/hexBytes.ts'
import { migrateToLatest } from '../../src/store/migrateToLatest.ts'
import { activityRecordOf, selectActivity } from '../../src/store/selectActivity.ts'
import { KEYED_HISTORY } from '../../src/store/stateTables.ts'
import { fromStoredLog } from '../../src/store/toStoredLog.ts'
import { fromStoredTransaction } from '../../src/store/toStoredTransaction.ts'
import { createIndexedWorld, type IndexedWorld } from '../support/createIndexedWorld.ts'
import { createTestApi, type TestApi } from '../support/createTestApi.ts'
import { createTestDatabase, createTestStore, DIALECTS } from '../support/createTestStore.ts'
import { digestStore } from '../support/digestStore.ts'

// Acceptance (issue 11): a database written before migrations 0012 (compact history), 0013
// (keyed history undo) and 0014 (history bytes), migrated, holds what indexing the same world writes today, answers
// every wallet endpoint the same and reverts the same. The "before" database is the indexed
// world written in the 0011 schema: every table copied as it is, activity as the full items
// (`selectActivity`), transfers with their transaction's hash and time, transactions and logs
// in hex text, and the undo log
// without the entries naming history rows, which is exactly what the 0011 indexer wrote.
const BEFORE = '0011_defi_tokens'
/** Tables the indexer and the prices write; the rest (accounts, webhooks) are empty here. */
const COPIED = [
  'checkpoints',
  'blocks',
  'transactions',
  'logs',
  'address_transactions',
  'transfers',
  'activity',
  'native_balances',
  'token_balances',
  'nft_holdings',
  'tokens',
  'approvals',
  'undo_log',
  'pools',
  'token_prices',
  'token_price_hours',
  'defi_tokens',
] as const
const CHUNK = 200

let world: IndexedWorld
beforeAll(async () => {
  world = await createIndexedWorld({ transfers: 1200, wallets: 40, priced: true, batchSize: 8 })
})
afterAll(async () => {
  await world?.stop()
})

describe('migrations 0012 to 0014 (compact history)', () => {
  for (const dialect of DIALECTS) {
    test(`default: a 0011 store, migrated, equals a fresh index, answers and reverts the same (${dialect})`, async () => {
      const fresh = await createTestStore(dialect)
      const before = await createTestDatabase(dialect)
      const migrated = createStore({ url: before.url })
      const apis: TestApi[] = []
      try {
        await world.indexInto(fresh.store)
        await migrateToLatest({ db: migrated.db, caps: migrated.caps, upTo: BEFORE })
        await writeAs0011({ from: fresh.store, to: migrated })
        expect(await migrated.migrate()).toEqual({
          applied: ['0012_compact_history', '0013_keyed_history_undo', '0014_history_bytes'],
        })
        await expectSameData(fresh.store, migrated)
        // 0013 named the rows of every batch kept for undo, as the indexer does now.
        const freshUndo = await undoEntries(fresh.store)
        expect(freshUndo.filter((e) => e.startsWith('activity|')).length).toBeGreaterThan(10)
        expect(await undoEntries(migrated)).toEqual(freshUndo)
        // The compact rows are what a fresh index writes: transfer items name their transfer.
        const compact = (s: Store) =>
          s.db
            .selectFrom('activity')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where('transfer_seq', 'is not', null)
            .where('from_address', 'is', null)
            .executeTakeFirstOrThrow()
            .then((r) => Number(r.n))
        expect(await compact(migrated)).toBe(await compact(fresh.store))
        expect(await compact(migrated)).toBeGreaterThan(1000)

        // Every wallet endpoint that reads the rebuilt tables answers the same.
        const api = { fresh: await open(fresh.store), migrated: await open(migrated) }
        apis.push(api.fresh, api.migrated)
        const wallets = [...world.world.wallets.slice(0, 12), world.world.forwarder]
        for (const wallet of wallets) {
          for (const path of [
            `/v1/evm/activity/${wallet}?limit=100`,
            `/v1/evm/activity/${wallet}?limit=7&asset_type=erc20,erc721`,
            `/v1/evm/activity/${wallet}?activity_type=swap,call,approve`,
            `/v1/evm/activity/${wallet}?token_address=${world.world.tokens[0]?.address}`,
            `/v1/evm/transactions/${wallet}?limit=50&decode=true`,
            `/v1/evm/collectibles/${wallet}?show_spam_scores=true`,
            `/v1/evm/balances/${wallet}`,
          ]) {
            const [x, y] = [await walk(api.fresh, path), await walk(api.migrated, path)]
            expect(y, path).toEqual(x)
          }
        }

        // A reorg after the upgrade undoes the same rows in both.
        const marker = await fresh.store.db
          .selectFrom('undo_log')
          .select((eb) => eb.fn.max('from_block').as('from'))
          .where('table_name', '=', '')
          .executeTakeFirstOrThrow()
        const toBlock = Number(marker.from)
        const landed = await fresh.store.revert({ chainId: world.chain.chainId, toBlock })
        expect(await migrated.revert({ chainId: world.chain.chainId, toBlock })).toEqual(landed)
        expect(landed.blockNumber).toBeLessThan(Number(world.world.endBlock))
        const removed = (await undoEntries(fresh.store)).length
        expect(removed).toBeLessThan(freshUndo.length)
        await expectSameData(fresh.store, migrated)
      } finally {
        for (const api of apis) await api.app.close()
        await migrated.close()
        await before.drop()
        await fresh.drop()
      }
    })
  }
})

/**
 * Every table the indexer writes holds the same rows, but activity, whose items made of a
 * transfer may name another of identical transfers after the migration: compared as items.
 */
async function expectSameData(fresh: Store, migrated: Store): Promise<void> {
  const { activity: _a, ...a } = await digestStore(fresh)
  const { activity: _b, ...b } = await digestStore(migrated)
  expect(b).toEqual(a)
  const items = (s: Store) =>
    selectActivity(s.db)
      .orderBy('a.address')
      .orderBy('a.chain_id')
      .orderBy('a.block_number')
      .orderBy('a.seq')
      .execute()
      .then((rows) => rows.map(({ transfer_seq, ...item }) => item))
  const freshItems = await items(fresh)
  expect(freshItems.length).toBeGreaterThan(1000)
  expect(await items(migrated)).toEqual(freshItems)
}

/** The undo log as sorted text lines (ids differ; keys compared as parsed JSON). */
async function undoEntries(store: Store): Promise<string[]> {
  const rows = await store.db.selectFrom('undo_log').selectAll().execute()
  return rows
    .map((r) => {
      const key = JSON.parse(r.row_key)
      const sorted = JSON.stringify(key, Object.keys(key).sort())
      return [r.table_name, r.chain_id, r.from_block, r.to_block, sorted, r.prev].join('|')
    })
    .sort()
}

/** Writes `from`'s indexed data into `to` (at the 0011 schema) as the 0011 indexer did. */
async function writeAs0011({ from, to }: { from: Store; to: Store }): Promise<void> {
  const db = to.db as unknown as Kysely<Record<string, Record<string, unknown>>>
  for (const table of COPIED) {
    let rows: Record<string, unknown>[]
    if (table === 'activity') {
      rows = (await selectActivity(from.db).execute())
        .map(activityRecordOf)
        .map(({ transfer_seq, ...item }) => item)
    } else if (table === 'transfers') {
      rows = await from.db
        .selectFrom('transfers as tr')
        .innerJoin('transactions as t', (join) =>
          join
            .onRef('t.chain_id', '=', 'tr.chain_id')
            .onRef('t.block_number', '=', 'tr.block_number')
            .onRef('t.tx_index', '=', 'tr.tx_index'),
        )
        .selectAll('tr')
        .select(['t.hash', 't.block_time'])
        .execute()
        .then((all) => all.map(({ hash, ...row }) => ({ ...row, tx_hash: bytesToHex(hash) })))
    } else if (table === 'transactions') {
      rows = (await from.db.selectFrom('transactions').selectAll().execute()).map(
        fromStoredTransaction,
      )
    } else if (table === 'logs') {
      rows = (await from.db.selectFrom('logs').selectAll().execute()).map(fromStoredLog)
    } else if (table === 'undo_log') {
      rows = (await from.db.selectFrom('undo_log').selectAll().orderBy('id').execute())
        .filter((row) => !(row.table_name in KEYED_HISTORY))
        .map(({ id, ...row }) => row)
    } else {
      rows = await (from.db as unknown as typeof db).selectFrom(table).selectAll().execute()
    }
    for (let i = 0; i < rows.length; i += CHUNK) {
      await db
        .insertInto(table)
        .values(rows.slice(i, i + CHUNK))
        .execute()
    }
  }
}

async function open(store: Store): Promise<TestApi> {
  return createTestApi({ store, chains: [world.chain] })
}

/** Every page of a list endpoint, without the answer times. */
async function walk(api: TestApi, first: string): Promise<unknown[]> {
  const pages: unknown[] = []
  let path: string | undefined = first
  while (path) {
    const res = await api.get(path)
    const { request_time, response_time, ...body } = res.body
    pages.push({ status: res.status, body })
    const next: string | undefined = body.next_offset
    path = next === undefined ? undefined : `${first}&offset=${encodeURIComponent(next)}`
    if (pages.length > 50) throw new Error(`${first}: more than 50 pages`)
  }
  return pages
}
