import { afterEach, describe, expect, test } from 'vitest'
import { createTestStore, DIALECTS, type TestStore } from '../../test/support/createTestStore.ts'
import { emptyBatch } from '../../test/support/emptyBatch.ts'
import type { StateChange } from '../store/stateTables.ts'
import { fromU256, toU256 } from '../store/u256.ts'
import { createStateView } from './createStateView.ts'

const CHAIN = 1
const T = '0x00000000000000000000000000000000000000cc'
const holder = (n: number) => `0x${n.toString(16).padStart(40, '0')}`

function balance(address: string, value: bigint | null): StateChange {
  const key = { address, chain_id: CHAIN, token: T }
  return {
    table: 'token_balances',
    key,
    row:
      value === null
        ? null
        : {
            ...key,
            balance: toU256(value),
            first_acquired_time: null,
            first_acquired_block: null,
            has_initiated_transfer: 0,
            block_number: 1,
          },
  }
}

const write = (state: StateChange[], block: number) =>
  emptyBatch({ chainId: CHAIN, fromBlock: block, toHash: `0xh${block}`, state })

for (const dialect of DIALECTS) {
  describe(`state view (${dialect})`, () => {
    let t: TestStore
    afterEach(async () => {
      await t?.drop()
    })

    test('behavior: pending batches read over the store, in order, until committed', async () => {
      t = await createTestStore(dialect)
      const { store } = t
      await store.applyBatch(write([balance(holder(1), 5n), balance(holder(2), 6n)], 1))
      const view = createStateView({ store })
      view.push(1, [balance(holder(1), 7n), balance(holder(3), 1n)])
      view.push(2, [balance(holder(2), null), balance(holder(3), 2n)])
      const read = async () =>
        (
          await view.readState({
            table: 'token_balances',
            chainId: CHAIN,
            keys: [1, 2, 3].map((n) => ({ address: holder(n), token: T })),
          })
        )
          .map((r) => [r.address, fromU256(r.balance)])
          .sort()
      expect(await read()).toEqual([
        [holder(1), 7n],
        [holder(3), 2n],
      ])
      expect((await view.tokenHolders({ chainId: CHAIN, token: T })).sort()).toEqual([
        holder(1),
        holder(3),
      ])
      // Another chain's and other holders' rows are not mixed in.
      expect(
        await view.readState({
          table: 'token_balances',
          chainId: 2,
          keys: [{ address: holder(1) }],
        }),
      ).toEqual([])
      view.committed(1)
      expect(view.pending()).toBe(2)
      view.clear()
      expect(await read()).toEqual([
        [holder(1), 5n],
        [holder(2), 6n],
      ])
    })

    test('behavior: a batch committed while a read runs is not lost from its answer', async () => {
      t = await createTestStore(dialect)
      const { store } = t
      await store.applyBatch(write([balance(holder(1), 5n)], 1))
      // The store answers from before the commit, after the batch has left the overlay.
      let release = () => {}
      const gate = new Promise<void>((r) => {
        release = r
      })
      const slow = {
        ...store,
        readState: (async (args) => {
          const rows = await store.readState(args)
          await gate
          return rows
        }) as typeof store.readState,
      }
      const view = createStateView({ store: slow })
      view.push(1, [balance(holder(1), 9n)])
      const reading = view.readState({
        table: 'token_balances',
        chainId: CHAIN,
        keys: [{ address: holder(1), token: T }],
      })
      await new Promise((r) => setTimeout(r, 50))
      await store.applyBatch(write([balance(holder(1), 9n)], 2))
      view.committed(1)
      release()
      expect((await reading).map((r) => fromU256(r.balance))).toEqual([9n])
    })

    test('behavior: a read by whole keys gives the pending rows in the order a read by part of them does', async () => {
      t = await createTestStore(dialect)
      const view = createStateView({ store: t.store })
      view.push(1, [balance(holder(3), 1n), balance(holder(1), 2n)])
      view.push(2, [balance(holder(2), 3n), balance(holder(3), 4n)])
      const read = async (keys: Record<string, string>[]) =>
        (await view.readState({ table: 'token_balances', chainId: CHAIN, keys })).map((r) => [
          r.address,
          fromU256(r.balance),
        ])
      const holders = [1, 2, 3].map(holder)
      const byWholeKey = await read(holders.map((address) => ({ address, token: T })))
      expect(byWholeKey).toEqual(await read(holders.map((address) => ({ address }))))
      expect(byWholeKey).toEqual([
        [holder(3), 4n],
        [holder(1), 2n],
        [holder(2), 3n],
      ])
    })
  })
}
