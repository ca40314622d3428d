import { sql } from 'kysely'
import { afterEach, describe, expect, test } from 'vitest'
import { createTestStore, DIALECTS, type TestStore } from '../../test/support/createTestStore.ts'
import { createPrng } from '../dev/createPrng.ts'
import type { BatchWrite } from './applyBatch.ts'
import { createStore } from './createStore.ts'
import { fromU256, toU256 } from './u256.ts'

const CHAIN = 1
const A = '0x00000000000000000000000000000000000000aa'
const B = '0x00000000000000000000000000000000000000bb'
const T = '0x00000000000000000000000000000000000000cc'

function batch(from: number, to: number, overrides: Partial<BatchWrite> = {}): BatchWrite {
  const blocks = []
  for (let n = from; n <= to; n++) {
    blocks.push({
      chain_id: CHAIN,
      number: n,
      hash: `0xh${n}`,
      parent_hash: `0xh${n - 1}`,
      timestamp: 1_700_000_000 + n,
      miner: A,
    })
  }
  return {
    chainId: CHAIN,
    fromBlock: from,
    toBlock: to,
    toHash: `0xh${to}`,
    keepUndo: true,
    blocks,
    transactions: [],
    logs: [],
    addressTransactions: [],
    transfers: [],
    activity: [],
    state: [],
    ...overrides,
  }
}

function balance(address: string, value: bigint, block: number) {
  return {
    table: 'token_balances' as const,
    key: { address, chain_id: CHAIN, token: T },
    row: {
      address,
      chain_id: CHAIN,
      token: T,
      balance: toU256(value),
      first_acquired_time: null,
      first_acquired_block: null,
      has_initiated_transfer: 0,
      block_number: block,
    },
  }
}

for (const dialect of DIALECTS) {
  describe(`store (${dialect})`, () => {
    let t: TestStore
    afterEach(async () => {
      await t?.drop()
    })

    test('default: applies a batch with its checkpoint', async () => {
      t = await createTestStore(dialect)
      expect(await t.store.getCheckpoint(CHAIN)).toBeUndefined()
      await t.store.applyBatch(batch(1, 3, { state: [balance(A, 5n, 3)] }))
      expect(await t.store.getCheckpoint(CHAIN)).toEqual({ blockNumber: 3, blockHash: '0xh3' })
      const rows = await t.store.readState({
        table: 'token_balances',
        chainId: CHAIN,
        keys: [{ address: A }],
      })
      expect(rows.map((r) => r.balance)).toEqual([toU256(5n)])
      expect(await t.store.getBlockHashes({ chainId: CHAIN, from: 2, to: 5 })).toEqual(
        new Map([
          [2, '0xh2'],
          [3, '0xh3'],
        ]),
      )
    })

    test('behavior: readState answers every asked key, however many, whole or a prefix', async () => {
      t = await createTestStore(dialect)
      const wallet = (i: number) => `0x${(i + 1).toString(16).padStart(40, '0')}`
      const tokens = [T, B]
      const state = Array.from({ length: 1_500 }, (_, i) => ({
        ...balance(wallet(i), BigInt(i), 1),
        key: { address: wallet(i), chain_id: CHAIN, token: tokens[i % 2] as string },
        row: { ...balance(wallet(i), BigInt(i), 1).row, token: tokens[i % 2] as string },
      }))
      await t.store.applyBatch(batch(1, 1, { state }))
      // Every stored pair, twice, and as many pairs that are not stored (the other token).
      const asked = state.flatMap((c, i) => [
        { address: c.key.address, token: c.key.token },
        { address: c.key.address, token: tokens[(i + 1) % 2] as string },
        { address: c.key.address, token: c.key.token },
      ])
      const rows = await t.store.readState({ table: 'token_balances', chainId: CHAIN, keys: asked })
      const got = rows.map((r) => `${r.address}|${r.token}|${fromU256(r.balance)}`).sort()
      expect(got).toEqual(state.map((c, i) => `${c.key.address}|${c.key.token}|${i}`).sort())
      // A prefix of the key: every row of the asked wallets.
      const byWallet = await t.store.readState({
        table: 'token_balances',
        chainId: CHAIN,
        keys: [{ address: wallet(7) }, { address: wallet(8) }, { address: wallet(5_000) }],
      })
      expect(byWallet.map((r) => fromU256(r.balance)).sort()).toEqual([7n, 8n])
      expect(
        await t.store.readState({ table: 'token_balances', chainId: CHAIN + 1, keys: asked }),
      ).toEqual([])
    })

    test('behavior: holder counts equal a recount of the balances through random batches and reverts', async () => {
      t = await createTestStore(dialect)
      const seed = Number(process.env.SCRY_TEST_SEED ?? Date.now() % 1_000_000)
      const prng = createPrng(seed)
      console.log(`holder counts (${dialect}): seed ${seed} (SCRY_TEST_SEED=${seed} repeats it)`)
      const wallets = Array.from(
        { length: 12 },
        (_, i) => `0x${(i + 1).toString(16).padStart(40, 'a')}`,
      )
      const tokens = [T, B, A]
      const recount = async () => {
        const rows = await t.store.db.selectFrom('token_balances').selectAll().execute()
        const by = new Map<string, { holders: number; senders: number }>()
        for (const r of rows) {
          const c = by.get(r.token) ?? { holders: 0, senders: 0 }
          c.holders += r.balance === toU256(0n) ? 0 : 1
          c.senders += r.has_initiated_transfer === 1 ? 1 : 0
          by.set(r.token, c)
        }
        return by
      }
      const counts = async () => {
        const rows = await t.store.db.selectFrom('token_holder_counts').selectAll().execute()
        return new Map(
          rows.map((r) => [r.token, { holders: Number(r.holders), senders: Number(r.senders) }]),
        )
      }
      for (let n = 1; n <= 40; n++) {
        const head = (await t.store.getCheckpoint(CHAIN))?.blockNumber ?? 0
        if (head > 3 && prng.chance(0.2)) {
          await t.store.revert({ chainId: CHAIN, toBlock: head - 1 - prng.int(3) })
        }
        const from = ((await t.store.getCheckpoint(CHAIN))?.blockNumber ?? 0) + 1
        // Every key at most once a batch; balances to zero and back, senders, deleted rows.
        const keys = prng.sample(
          wallets.flatMap((w) => tokens.map((token) => [w, token] as const)),
          prng.between(1, 20),
        )
        const state = keys.map(([address, token]) => {
          const key = { address, chain_id: CHAIN, token }
          if (prng.chance(0.15)) return { table: 'token_balances' as const, key, row: null }
          const value = prng.chance(0.3) ? 0n : BigInt(prng.between(1, 1000))
          const row = { ...balance(address, value, from).row, token }
          return {
            table: 'token_balances' as const,
            key,
            row: { ...row, has_initiated_transfer: prng.chance(0.3) ? 1 : 0 },
          }
        })
        await t.store.applyBatch(batch(from, from, { state }))
        const expected = await recount()
        const got = await counts()
        for (const [token, c] of got) {
          expect(c, `seed ${seed} (SCRY_TEST_SEED repeats it), batch ${n}, token ${token}`).toEqual(
            expected.get(token) ?? { holders: 0, senders: 0 },
          )
        }
        for (const token of expected.keys()) expect(got.has(token), `seed ${seed}`).toBe(true)
      }
    })

    test('behavior: migrate is idempotent', async () => {
      t = await createTestStore(dialect)
      expect(await t.store.migrate()).toEqual({ applied: [] })
    })

    test('error: a database a newer Scry migrated is refused by migrate and by side commands, by name', async () => {
      t = await createTestStore(dialect)
      await sql`insert into scry_migrations (name, timestamp) values ('0099_from_the_future', '2027-01-01T00:00:00.000Z')`.execute(
        t.store.db,
      )
      const newer =
        /^The database was migrated by a newer Scry: this version does not know its migration\(s\) 0099_from_the_future\./
      await expect(t.store.migrate()).rejects.toThrow(newer)
      const side = createStore({ url: t.url, mustExist: true })
      try {
        await expect(side.ping()).rejects.toThrow(newer)
      } finally {
        await side.close()
      }
    })

    test('behavior: uint256 balances order numerically through the holders index', async () => {
      t = await createTestStore(dialect)
      const values = [0n, 9n, 10n, 255n, 256n, 2n ** 200n, 2n ** 256n - 1n, 1n]
      const state = values.map((v, i) =>
        balance(`0x${(i + 1).toString(16).padStart(40, '0')}`, v, 1),
      )
      await t.store.applyBatch(batch(1, 1, { state }))
      const rows = await t.store.db
        .selectFrom('token_balances')
        .select('balance')
        .where('chain_id', '=', CHAIN)
        .where('token', '=', T)
        .orderBy('balance', 'desc')
        .execute()
      expect(rows.map((r) => fromU256(r.balance))).toEqual(
        [...values].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)),
      )
    })

    test('behavior: revert restores state and removes history past the landing block', async () => {
      t = await createTestStore(dialect)
      await t.store.applyBatch(batch(1, 1, { state: [balance(A, 1n, 1)] }))
      await t.store.applyBatch(batch(2, 2, { state: [balance(A, 2n, 2), balance(B, 7n, 2)] }))
      await t.store.applyBatch(batch(3, 3, { state: [{ ...balance(A, 0n, 3), row: null }] }))
      expect(await t.store.revert({ chainId: CHAIN, toBlock: 1 })).toEqual({
        blockNumber: 1,
        blockHash: '0xh1',
      })
      const rows = await t.store.readState({
        table: 'token_balances',
        chainId: CHAIN,
        keys: [{ address: A }, { address: B }],
      })
      expect(rows.map((r) => [r.address, r.balance])).toEqual([[A, toU256(1n)]])
      expect(await t.store.getCheckpoint(CHAIN)).toEqual({ blockNumber: 1, blockHash: '0xh1' })
      expect(await t.store.getBlockHashes({ chainId: CHAIN, from: 2, to: 2 })).toEqual(new Map())
    })

    test('behavior: a multi-block batch is undone whole', async () => {
      t = await createTestStore(dialect)
      await t.store.applyBatch(batch(1, 2, { state: [balance(A, 1n, 2)] }))
      await t.store.applyBatch(batch(3, 6, { state: [balance(A, 2n, 6)] }))
      expect((await t.store.revert({ chainId: CHAIN, toBlock: 4 })).blockNumber).toBe(2)
      const rows = await t.store.readState({
        table: 'token_balances',
        chainId: CHAIN,
        keys: [{ address: A }],
      })
      expect(rows.map((r) => r.balance)).toEqual([toU256(1n)])
    })

    test('error: a revert deeper than the kept undo throws and changes nothing', async () => {
      t = await createTestStore(dialect)
      await t.store.applyBatch(batch(1, 5, { keepUndo: false, state: [balance(A, 1n, 5)] }))
      await t.store.applyBatch(batch(6, 6, { state: [balance(A, 2n, 6)] }))
      await expect(t.store.revert({ chainId: CHAIN, toBlock: 3 })).rejects.toThrowError(
        /cannot revert to block 3/,
      )
      expect((await t.store.getCheckpoint(CHAIN))?.blockNumber).toBe(6)
      await t.store.pruneUndo({ chainId: CHAIN, belowBlock: 6 })
      await expect(t.store.revert({ chainId: CHAIN, toBlock: 5 })).rejects.toThrowError(
        /no longer kept for undo/,
      )
    })
  })
}
