import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestStore, DIALECTS, type TestStore } from '../../../test/support/createTestStore.ts'
import { emptyBatch } from '../../../test/support/emptyBatch.ts'
import { ZERO_ADDRESS } from '../../evm/derive/zeroAddress.ts'
import type { BatchWrite } from '../../store/applyBatch.ts'
import type {
  ActivityRecord,
  AddressTransactionRecord,
  TransactionRecord,
} from '../../store/schema.ts'
import {
  comparePositions,
  type Position,
  readWalletTransactions,
} from './readWalletTransactions.ts'

// A wallet's transactions are read from its activity items and the `address_transactions`
// rows the store keeps beside them (only pairs without an item, migration 0019). Random
// histories on two chains whose blocks share times, with transactions where a wallet has
// hundreds of items (more than a round of the reader), are written through the store and
// paged with small and large limits: every page must be the next part of the full list of
// pairs the indexer derived, newest first, each transaction once.
const SEED = Number(process.env.SCRY_TEST_SEED ?? Math.floor(Math.random() * 2 ** 31))
const WALLETS = [1, 2, 3, 4].map((n) => `0x${n.toString(16).padStart(40, '0')}`)
const CONTRACT = `0x${'c'.repeat(40)}`
const CHAINS = [1, 10]
const BLOCKS = 30

function random(seed: number) {
  let s = seed >>> 0
  return (n: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s % n
  }
}

type History = {
  chainId: number
  pairs: AddressTransactionRecord[]
  write: Parameters<TestStore['store']['applyBatch']>[0]
}

const blockHash = (chainId: number, block: number) =>
  `0x${chainId.toString(16).padStart(8, '0')}${block.toString(16).padStart(56, '0')}`

/** One chain's history: blocks, transactions, items and every pair, as `deriveHistory` gives. */
function history(chainId: number, next: (n: number) => number): History {
  const transactions: TransactionRecord[] = []
  const activity: ActivityRecord[] = []
  const pairs: AddressTransactionRecord[] = []
  const blocks: BatchWrite['blocks'] = []
  for (let block = 1; block <= BLOCKS; block++) {
    // Both chains have a block every 12 s from the same time: equal times across chains.
    const time = 1_700_000_000 + 12 * block
    blocks.push({
      chain_id: chainId,
      number: block,
      hash: blockHash(chainId, block),
      parent_hash: blockHash(chainId, block - 1),
      timestamp: time,
      miner: CONTRACT,
    })
    let seq = 0
    const count = next(4)
    for (let index = 0; index < count; index++) {
      const from = WALLETS[next(WALLETS.length)] as string
      const involved = new Set([from, CONTRACT])
      const tx = { chain_id: chainId, block_number: block, tx_index: index }
      transactions.push({
        ...tx,
        hash: `0x${[chainId, block, index]
          .map((n) => n.toString(16).padStart(8, '0'))
          .join('')
          .padStart(64, '0')}`,
        block_hash: blockHash(chainId, block),
        block_time: time,
        from_address: from,
        to_address: CONTRACT,
        contract_address: null,
        value: '00',
        nonce: index,
        gas_price: '00',
        gas_used: '00',
        tx_type: 2,
        input: '0x',
        success: 1,
      })
      // Items: the sender's, sometimes hundreds in one transaction; other wallets' and the
      // zero address's (a mint names it), which the zero address's transactions never list.
      const itemsOf = (address: string, n: number) => {
        for (let i = 0; i < n; i++) {
          activity.push({
            address,
            ...tx,
            seq: seq++,
            block_time: time,
            tx_hash: '',
            type: 'send',
            asset_type: 'erc20',
            token_address: CONTRACT,
            from_address: from,
            to_address: address,
            value: '01',
            token_id: null,
            spender: null,
            tx_from: from,
            tx_to: CONTRACT,
            tx_value: '00',
            function_selector: null,
            to_token_address: null,
            to_value: null,
            value_usd: null,
            transfer_seq: null,
          })
        }
      }
      itemsOf(from, next(5) === 0 ? 150 + next(100) : next(3))
      const other = WALLETS[next(WALLETS.length)] as string
      if (next(2) === 0) {
        involved.add(other)
        itemsOf(other, 1 + next(2))
      }
      if (next(6) === 0) itemsOf(ZERO_ADDRESS, 1)
      for (const address of involved) pairs.push({ address, ...tx, block_time: time })
    }
  }
  return {
    chainId,
    pairs,
    write: emptyBatch({
      chainId,
      fromBlock: 1,
      toBlock: BLOCKS,
      blocks,
      transactions,
      activity,
      addressTransactions: pairs,
    }),
  }
}

describe.each(DIALECTS)('readWalletTransactions (%s)', (dialect) => {
  let t: TestStore
  let histories: History[]
  beforeAll(async () => {
    console.log(`readWalletTransactions: seed ${SEED} (SCRY_TEST_SEED=${SEED} repeats it)`)
    const next = random(SEED)
    histories = CHAINS.map((chainId) => history(chainId, next))
    t = await createTestStore(dialect)
    for (const h of histories) await t.store.applyBatch(h.write)
  })
  afterAll(async () => {
    await t?.drop()
  })

  test('default: every page continues the full list of the wallet’s pairs, newest first', async () => {
    const all = histories.flatMap((h) => h.pairs)
    // The store keeps the pairs without an item only.
    const stored = await t.store.db.selectFrom('address_transactions').selectAll().execute()
    expect(stored.length, `seed ${SEED}`).toBeLessThan(all.length)
    expect(stored.length).toBeGreaterThan(0)

    for (const address of [...WALLETS, CONTRACT, ZERO_ADDRESS]) {
      for (const chainIds of [CHAINS, [10]]) {
        const expected: Position[] = all
          .filter((p) => p.address === address && chainIds.includes(p.chain_id))
          .map((p): Position => [p.block_time, p.chain_id, p.block_number, p.tx_index])
          .sort(comparePositions)
        for (const limit of [1, 3, 100]) {
          const got: Position[] = []
          let after: Position | undefined
          for (;;) {
            const page = await readWalletTransactions({
              db: t.store.db,
              caps: t.store.caps,
              address,
              chainIds,
              after,
              count: limit + 1,
            })
            const shown = page.positions.slice(0, limit)
            for (const [i, row] of page.transactions.slice(0, limit).entries()) {
              const [, chain, block, index] = shown[i] as Position
              expect([row.chain_id, row.block_number, row.tx_index].map(Number)).toEqual([
                chain,
                block,
                index,
              ])
              // The block's hash and time, which the stored row does not hold (0021).
              expect([row.block_hash, row.block_time]).toEqual([
                blockHash(chain, block),
                (shown[i] as Position)[0],
              ])
            }
            got.push(...shown)
            if (page.positions.length <= limit) break
            after = shown[shown.length - 1]
          }
          expect(got, `seed ${SEED} ${address} chains ${chainIds} limit ${limit}`).toEqual(expected)
        }
      }
    }
  })
})
