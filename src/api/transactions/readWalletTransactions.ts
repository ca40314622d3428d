import type { Kysely } from 'kysely'
import { ZERO_ADDRESS } from '../../evm/derive/zeroAddress.ts'
import type { DialectCaps } from '../../store/dialect.ts'
import { hexToBytes } from '../../store/hexBytes.ts'
import { keysIn, TRANSACTION_KEY } from '../../store/keysIn.ts'
import { type PackedLog, unpackLogs } from '../../store/packLogs.ts'
import type { Database, TransactionRecord } from '../../store/schema.ts'
import { fromStoredTransaction } from '../../store/toStoredTransaction.ts'

/** A wallet's transaction in the API's order: time, chain, block, position, newest first. */
export type Position = [blockTime: number, chainId: number, blockNumber: number, txIndex: number]

/** A transaction with its logs, in log-index order. */
export type WalletTransaction = TransactionRecord & { logs: PackedLog[] }

/** Activity rows read per round at first; doubled each round a wallet needs more. */
const FIRST_ROUND = 64
const MAX_ROUND = 8192

/**
 * Up to `count` transactions of a wallet after `after`, newest first, with their logs and
 * their blocks' hash and time (`blocks`; the stored row has neither, migration 0021). A wallet's
 * transactions are those of its activity items and its `address_transactions` rows, which
 * hold only the pairs without an item (migration 0019, `addressTransactionsToStore`): both
 * are read in key order from `after` and merged. Activity is keyed by item, not by
 * transaction; its items come in block order and, within a block, in transaction order
 * (`seq`), so one transaction's items are neighbours and are taken once.
 */
export async function readWalletTransactions({
  db,
  caps,
  address,
  chainIds,
  after,
  count,
}: {
  db: Kysely<Database>
  caps: Pick<DialectCaps, 'keyList'>
  address: string
  chainIds: readonly number[]
  after: Position | undefined
  count: number
}): Promise<{
  /** Where each transaction stands (the cursor of the next page is a position). */
  positions: Position[]
  transactions: WalletTransaction[]
}> {
  const wallet = hexToBytes(address)
  const [fromItems, fromRows] = await Promise.all([
    // The zero address takes part in no transaction (`deriveHistory`), though mints and
    // burns name it in items.
    address === ZERO_ADDRESS ? [] : readItemPositions({ db, wallet, chainIds, after, count }),
    readRowPositions({ db, wallet, chainIds, after, count }),
  ])
  const merged = mergePositions(fromItems, fromRows).slice(0, count)
  if (merged.length === 0) return { positions: [], transactions: [] }

  // One statement, so a transaction and its block come from the same snapshot.
  const stored = await db
    .selectFrom('transactions as t')
    .innerJoin('blocks as b', (join) =>
      join.onRef('b.chain_id', '=', 't.chain_id').onRef('b.number', '=', 't.block_number'),
    )
    .selectAll('t')
    .select(['b.hash as block_hash', 'b.timestamp as block_time'])
    .where(
      keysIn({
        caps,
        columns: TRANSACTION_KEY.map(([name, type]) => [`t.${name}`, type] as const),
        keys: merged.map(([, chain, block, index]) => [chain, block, index]),
      }),
    )
    .execute()
  const byKey = new Map(stored.map((row) => [txKey(row), row]))
  // A pair is written in the batch of its transaction and block, so every position has both
  // (unless a revert landed between the reads: then the position is left out).
  const positions: Position[] = []
  const transactions: WalletTransaction[] = []
  for (const position of merged) {
    const [, chain_id, block_number, tx_index] = position
    const row = byKey.get(txKey({ chain_id, block_number, tx_index }))
    if (!row) continue
    positions.push(position)
    transactions.push({
      ...fromStoredTransaction(row, { hash: row.block_hash, timestamp: row.block_time }),
      logs: unpackLogs(row.logs),
    })
  }
  return { positions, transactions }
}

type Scan = {
  db: Kysely<Database>
  wallet: Uint8Array
  chainIds: readonly number[]
  after: Position | undefined
  count: number
}

/** The wallet's `address_transactions` rows after `after`, in key order. */
async function readRowPositions({ db, wallet, chainIds, after, count }: Scan) {
  let q = db
    .selectFrom('address_transactions')
    .select(['block_time', 'chain_id', 'block_number', 'tx_index'])
    .where('address', '=', wallet)
    .where('chain_id', 'in', chainIds)
  if (after) {
    q = q.where((eb) =>
      eb(
        eb.refTuple('block_time', 'chain_id', 'block_number', 'tx_index'),
        '<',
        eb.tuple(...after),
      ),
    )
  }
  const rows = await q
    .orderBy('block_time', 'desc')
    .orderBy('chain_id', 'desc')
    .orderBy('block_number', 'desc')
    .orderBy('tx_index', 'desc')
    .limit(count)
    .execute()
  return rows.map(positionOf)
}

/**
 * The transactions of the wallet's activity items after `after`: items in key order (time,
 * chain, block, seq), in rounds until `count` distinct transactions or the last item.
 */
async function readItemPositions({ db, wallet, chainIds, after, count }: Scan) {
  const positions: Position[] = []
  let from: [number, number, number, number] | undefined
  for (let round = Math.max(FIRST_ROUND, 2 * count); ; round = Math.min(2 * round, MAX_ROUND)) {
    let q = db
      .selectFrom('activity')
      .select(['block_time', 'chain_id', 'block_number', 'tx_index', 'seq'])
      .where('address', '=', wallet)
      .where('chain_id', 'in', chainIds)
    if (after) {
      const [time, chain, block, index] = after
      // The block's part is a range of the key; the position within it, a filter.
      q = q
        .where((eb) =>
          eb(
            eb.refTuple('block_time', 'chain_id', 'block_number'),
            '<=',
            eb.tuple(time, chain, block),
          ),
        )
        .where((eb) =>
          eb.or([
            eb(
              eb.refTuple('block_time', 'chain_id', 'block_number'),
              '<',
              eb.tuple(time, chain, block),
            ),
            eb('tx_index', '<', index),
          ]),
        )
    }
    if (from) {
      const key = from
      q = q.where((eb) =>
        eb(eb.refTuple('block_time', 'chain_id', 'block_number', 'seq'), '<', eb.tuple(...key)),
      )
    }
    const items = await q
      .orderBy('block_time', 'desc')
      .orderBy('chain_id', 'desc')
      .orderBy('block_number', 'desc')
      .orderBy('seq', 'desc')
      .limit(round)
      .execute()
    for (const item of items) {
      const position = positionOf(item)
      const last = positions[positions.length - 1]
      if (last && comparePositions(last, position) === 0) continue
      positions.push(position)
      if (positions.length === count) return positions
    }
    const last = items[items.length - 1]
    if (!last || items.length < round) return positions
    from = [
      Number(last.block_time),
      Number(last.chain_id),
      Number(last.block_number),
      Number(last.seq),
    ]
  }
}

const txKey = (row: { chain_id: number; block_number: number; tx_index: number }) =>
  `${Number(row.chain_id)}:${Number(row.block_number)}:${Number(row.tx_index)}`

const positionOf = (row: {
  block_time: number
  chain_id: number
  block_number: number
  tx_index: number
}): Position => [
  Number(row.block_time),
  Number(row.chain_id),
  Number(row.block_number),
  Number(row.tx_index),
]

/** Newest first: > 0 when `a` comes after `b` in the list. Pure. */
export function comparePositions(a: Position, b: Position): number {
  for (let i = 0; i < 4; i++) {
    const d = (b[i] as number) - (a[i] as number)
    if (d !== 0) return d
  }
  return 0
}

/** Two newest-first lists as one, each position once. Pure. */
function mergePositions(a: readonly Position[], b: readonly Position[]): Position[] {
  const out: Position[] = []
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    const x = a[i]
    const y = b[j]
    const c = x && y ? comparePositions(x, y) : x ? -1 : 1
    const next = (c <= 0 ? x : y) as Position
    if (c <= 0) i++
    if (c >= 0) j++
    out.push(next)
  }
  return out
}
