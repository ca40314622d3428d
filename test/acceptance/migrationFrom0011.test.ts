import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { readHistoricalPrices } from '../../src/api/prices/readHistoricalPrices.ts'
import { readTokenPrices } from '../../src/api/prices/readTokenPrices.ts'
import { ZERO_ADDRESS } from '../../src/evm/derive/zeroAddress.ts'
import type { Address } from '../../src/evm/types.ts'
import { createStore, type Store } from '../../src/store/createStore.ts'
import { bytesToHex, bytesToHexOrNull, hexToBytes } from '../../src/store/hexBytes.ts'
import { migrateToLatest } from '../../src/store/migrateToLatest.ts'
import { unpackLogs } from '../../src/store/packLogs.ts'
import { activityRecordOf, selectActivity } from '../../src/store/selectActivity.ts'
import { KEYED_HISTORY } from '../../src/store/stateTables.ts'
import { fromU256 } from '../../src/store/u256.ts'
import { createIndexedWorld, type IndexedWorld } from '../support/createIndexedWorld.ts'
import { createTestApi, type TestApi } from '../support/createTestApi.ts'
import { createTestDatabase, createTestStore, DIALECTS } from '../support/createTestStore.ts'
import { digestStore } from '../support/digestStore.ts'
import { readStoredTransactions } from '../support/readStoredTransactions.ts'

// Acceptance (issue 11): a database written before migrations 0012 (compact history), 0013 (keyed
// history undo), 0014 (history bytes), 0015 (compact uint256), 0017 (history addresses as bytes),
// 0019 (address_transactions beyond activity), 0021 (transactions without their block's hash and
// time), 0022 (logs packed in their transactions), 0023 (calldata and logs in packed words), 0024
// (PostgreSQL's history columns realigned) and 0025 (holder counts moved once per token and
// statement), migrated, holds what indexing the same world writes today, answers every wallet
// endpoint the same and reverts the same. The "before" database is the indexed world written in the
// 0011 schema: every table copied as it is, activity as the full items (`selectActivity`),
// transfers with their transaction's hash and time, every (address, transaction) pair in
// `address_transactions`, transactions with their block's hash and time, logs in a table of their
// own, every address in hex text, uint256 values as 64 hex digits, and the undo log without the
// entries naming history rows, which is exactly what the 0011 indexer wrote. Prices are the
// exception (0018 keeps them relative to the route's parent): the copy holds today's prices and
// hourly points in USD, as 0011 stored them, without their undo entries (0018's own test reverts a
// converted one), and they are compared by what the API answers, not by rows.
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

describe('migrations 0012 to 0026 (compact history, Aave tokens, address bytes, relative prices, fewer address rows, one balance index fewer on PostgreSQL, transactions without their block fields, logs packed in transactions, packed words, aligned columns, holder counts per statement, lease stops)', () => {
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
        const reports: [string, number, number | undefined][] = []
        const result = await migrated.migrate({ onProgress: (...report) => reports.push(report) })
        expect(result).toEqual({
          applied: [
            '0012_compact_history',
            '0013_keyed_history_undo',
            '0014_history_bytes',
            '0015_compact_u256',
            '0016_defi_token_pool',
            '0017_history_addresses',
            '0018_relative_prices',
            '0019_address_transactions_beyond_activity',
            '0020_postgres_balances_without_wallet_copy',
            '0021_transactions_without_block_fields',
            '0022_logs_in_transactions',
            '0023_packed_calldata_and_logs',
            '0024_postgres_history_alignment',
            '0025_holder_counts_per_statement',
            '0026_indexer_lease_stops',
          ],
        })
        await expectSameData(fresh.store, migrated)
        // 0023 rewrote every transaction in chunks and said how far it was after each.
        const transactions = (await readStoredTransactions(fresh.store)).length
        expect(reports.at(-1)).toEqual([
          '0023_packed_calldata_and_logs',
          transactions,
          transactions,
        ])
        expect(reports.length).toBe(Math.ceil(transactions / 1000))
        // 0016 queued every stored ERC20 token that is no DeFi token for the one-time probe.
        const queued = await migrated.db.selectFrom('defi_token_probes').select('address').execute()
        const erc20 = await fresh.store.db
          .selectFrom('tokens')
          .select('address')
          .where('standard', '=', 'erc20')
          .where('address', 'not in', (eb) => eb.selectFrom('defi_tokens').select('address'))
          .execute()
        expect(queued.map((r) => r.address).sort()).toEqual(erc20.map((r) => r.address).sort())
        expect(queued.length).toBeGreaterThan(3)
        // 0013 named the rows of every batch kept for undo, as the indexer does now.
        const freshUndo = await undoEntries(fresh.store)
        expect(freshUndo.filter((e) => e.startsWith('activity|')).length).toBeGreaterThan(10)
        expect(await undoEntries(migrated)).toEqual(freshUndo.filter((e) => !isPriceEntry(e)))
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
        await expectSameData(fresh.store, migrated, { prices: false })
      } finally {
        for (const api of apis) await api.app.close()
        await migrated.close()
        await before.drop()
        await fresh.drop()
      }
    })
  }
})

const PRICE_TABLES = ['token_prices', 'token_price_hours']
const isPriceEntry = (entry: string) => PRICE_TABLES.some((t) => entry.startsWith(`${t}|`))

/**
 * Every table the indexer writes holds the same rows, but activity, whose items made of a
 * transfer may name another of identical transfers after the migration: compared as items;
 * and prices, compared as the USD prices read from them (after a revert, not at all: their
 * undo entries were not copied).
 */
async function expectSameData(
  fresh: Store,
  migrated: Store,
  { prices = true }: { prices?: boolean } = {},
): Promise<void> {
  const digest = async (s: Store) => {
    const { activity, token_prices, token_price_hours, ...rest } = await digestStore(s)
    return rest
  }
  expect(await digest(migrated)).toEqual(await digest(fresh))
  if (prices) {
    const a = await usdPrices(fresh)
    expect(a.current.size).toBeGreaterThanOrEqual(3)
    // Some token is priced through another token than USDC (a row that 0018 made relative).
    const relayed = await fresh.db
      .selectFrom('token_prices')
      .select('token')
      .where('parent', 'is not', null)
      .where('parent', 'not in', world.chain.usdc)
      .execute()
    expect(relayed.length).toBeGreaterThan(0)
    expect(await usdPrices(migrated)).toEqual(a)
  }
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
  // Holder counts follow balances through triggers, which compare with the stored zero.
  const counts = (s: Store) =>
    s.db
      .selectFrom('token_holder_counts')
      .selectAll()
      .orderBy('chain_id')
      .orderBy('token')
      .execute()
  const freshCounts = await counts(fresh)
  expect(freshCounts.some((c) => Number(c.holders) > 0)).toBe(true)
  expect(await counts(migrated)).toEqual(freshCounts)
}

/** The undo log as sorted text lines (ids differ; keys and rows compared as parsed JSON). */
async function undoEntries(store: Store): Promise<string[]> {
  const rows = await store.db.selectFrom('undo_log').selectAll().execute()
  const canonical = (text: string | null) => {
    if (text === null) return ''
    const value = JSON.parse(text)
    return JSON.stringify(value, Object.keys(value).sort())
  }
  return rows
    .map((r) =>
      [
        r.table_name,
        r.chain_id,
        r.from_block,
        r.to_block,
        canonical(r.row_key),
        canonical(r.prev),
      ].join('|'),
    )
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
        .innerJoin('blocks as b', (join) =>
          join.onRef('b.chain_id', '=', 'tr.chain_id').onRef('b.number', '=', 'tr.block_number'),
        )
        .selectAll('tr')
        .select(['t.hash', 'b.timestamp as block_time'])
        .execute()
        .then((all) =>
          all.map(({ hash, ...row }) => ({
            ...row,
            tx_hash: bytesToHex(hash),
            token: bytesToHexOrNull(row.token),
            from_address: bytesToHex(row.from_address),
            to_address: bytesToHex(row.to_address),
          })),
        )
    } else if (table === 'address_transactions') {
      // Every pair, as before 0019: the stored rows and the pairs of the activity items.
      const items = await from.db
        .selectFrom('activity')
        .select(['address', 'block_time', 'chain_id', 'block_number', 'tx_index'])
        .distinct()
        .where('address', '!=', hexToBytes(ZERO_ADDRESS))
        .execute()
      const stored = await from.db.selectFrom('address_transactions').selectAll().execute()
      expect(stored.length).toBeGreaterThan(100)
      expect(items.length).toBeGreaterThan(stored.length)
      rows = [...stored, ...items].map((row) => ({ ...row, address: bytesToHex(row.address) }))
    } else if (table === 'transactions') {
      rows = await readStoredTransactions(from)
    } else if (table === 'logs') {
      // Logs had a table of their own until 0022: one row per log, from the packed column.
      const stored = await from.db
        .selectFrom('transactions')
        .select(['chain_id', 'block_number', 'tx_index', 'logs'])
        .execute()
      // Topics as the JSON text 0011 kept (0014 made them bytes).
      rows = stored.flatMap(({ logs, ...tx }) =>
        unpackLogs(logs).map((log) => ({ ...tx, ...log, topics: JSON.stringify(log.topics) })),
      )
      expect(rows.length).toBeGreaterThan(500)
    } else if (table === 'defi_tokens') {
      rows = (await from.db.selectFrom('defi_tokens').selectAll().execute()).map(
        ({ pool, ...row }) => row,
      )
    } else if (table === 'undo_log') {
      rows = (await from.db.selectFrom('undo_log').selectAll().orderBy('id').execute())
        .filter(
          (row) => !(row.table_name in KEYED_HISTORY || PRICE_TABLES.includes(row.table_name)),
        )
        .map(({ id, ...row }) => row)
    } else if (table === 'token_prices') {
      const { current } = await usdPrices(from)
      rows = (await from.db.selectFrom('token_prices').selectAll().execute()).flatMap(
        ({ parent, price, pool_size, ...row }) => {
          const usd = current.get(row.token as Address)
          return usd ? [{ ...row, price_usd: usd.priceUsd, pool_size_usd: usd.poolSizeUsd }] : []
        },
      )
    } else if (table === 'token_price_hours') {
      const { hours } = await usdPrices(from)
      rows = (await from.db.selectFrom('token_price_hours').selectAll().execute()).flatMap(
        ({ parent, price, ...row }) => {
          const usd = hours.get(`${row.token}|${row.hour}`)
          return usd === undefined ? [] : [{ ...row, price_usd: usd }]
        },
      )
    } else {
      rows = await (from.db as unknown as typeof db).selectFrom(table).selectAll().execute()
    }
    rows = rows.map((row) => as0011U256(table, row))
    for (let i = 0; i < rows.length; i += CHUNK) {
      await db
        .insertInto(table)
        .values(rows.slice(i, i + CHUNK))
        .execute()
    }
  }
}

/** uint256 fields of the 0011 schema (activity with its transaction's value). */
const U256_FIELDS: Record<string, string[]> = {
  transactions: ['value', 'gas_price', 'gas_used'],
  transfers: ['token_id', 'value'],
  activity: ['value', 'token_id', 'to_value', 'tx_value'],
  native_balances: ['balance'],
  token_balances: ['balance'],
  nft_holdings: ['token_id', 'balance'],
  tokens: ['total_supply'],
  approvals: ['allowance'],
  pools: ['reserve0', 'reserve1', 'sqrt_price_x96', 'liquidity'],
  nft_metadata: ['token_id'],
}

/** A row with its uint256 fields as 0011 stored them (64 hex digits), undo entries' too. */
function as0011U256(table: string, row: Record<string, unknown>): Record<string, unknown> {
  const old = (fields: readonly string[] | undefined, values: Record<string, unknown>) => {
    const out = { ...values }
    for (const f of fields ?? []) {
      const v = out[f]
      if (typeof v === 'string') out[f] = fromU256(v).toString(16).padStart(64, '0')
    }
    return out
  }
  if (table !== 'undo_log') return old(U256_FIELDS[table], row)
  const fields = U256_FIELDS[row.table_name as string]
  const json = (text: unknown) =>
    typeof text === 'string' ? JSON.stringify(old(fields, JSON.parse(text))) : text
  return { ...row, prev: json(row.prev), row_key: json(row.row_key) }
}

/**
 * The USD prices a store answers: every current price (`readTokenPrices`), and every hourly
 * point as `historical_prices` reads it at the time it was set.
 */
async function usdPrices(store: Store) {
  const chain = world.chain
  const tokens = (await store.db.selectFrom('token_prices').select('token').execute()).map(
    (r) => r.token as Address,
  )
  const current = await readTokenPrices({ db: store.db, chain, assets: tokens })
  const hours = new Map<string, number>()
  const points = await store.db.selectFrom('token_price_hours').selectAll().execute()
  for (const point of points) {
    const token = point.token as Address
    const read = await readHistoricalPrices({
      db: store.db,
      chain,
      assets: [token],
      offsets: [0],
      at: point.block_time,
    })
    const usd = read.get(token)?.[0]?.price_usd
    if (usd !== undefined) hours.set(`${token}|${point.hour}`, usd)
  }
  return { current: new Map([...current].map(([t, p]) => [t, { ...p, pool: null }])), hours }
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
