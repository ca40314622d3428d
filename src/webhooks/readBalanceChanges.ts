import { encodeAddressCall } from '../evm/abi/encodeAddressCall.ts'
import { BALANCE_OF_SELECTOR } from '../evm/abis.ts'
import { decodeUint } from '../evm/decode/decodeMetadataString.ts'
import type { HistoryRows } from '../evm/derive/deriveHistory.ts'
import { readAtBlock } from '../evm/read/readAtBlock.ts'
import type { BatchReads } from '../evm/read/readBatchState.ts'
import type { RpcClient } from '../evm/rpc/createRpcClient.ts'
import type { Address, Hex } from '../evm/types.ts'
import { findBalanceMovements } from './findBalanceMovements.ts'

/** One subscribed address's balance of one asset, changed in one block. */
export type BalanceChange = {
  address: string
  /** Token address, or `native`. */
  asset: string
  blockNumber: number
  before: bigint
  after: bigint
  /** The last transaction in the block that moved this balance (when one did visibly). */
  txHash: string | undefined
  counterparty: string | undefined
}

type Pair = { address: Address; asset: Address | 'native' }

/**
 * Balance changes of the subscribed addresses, per block, from the node. The batch read balances
 * at its last block (`reads`); for a subscribed pair this adds a read just before the batch and
 * one at every earlier block of the batch in which a transfer or a sent transaction moved it,
 * so each change's before/after are the node's own values, even in multi-block (backfill)
 * batches. A change the batch's events do not explain (rebasing, untraced internal transfers,
 * withdrawals) is attributed to the batch's last block. Only subscribed pairs cost reads.
 */
export async function readBalanceChanges({
  rpc,
  rows,
  reads,
  subscribed,
  fromBlock,
  toBlock,
  signal,
}: {
  rpc: RpcClient
  rows: Pick<HistoryRows, 'transfers' | 'transactions' | 'blocks'>
  reads: Pick<BatchReads, 'native' | 'erc20Balances'>
  /** Addresses with a balances subscription on this chain. */
  subscribed: ReadonlySet<string>
  fromBlock: number
  toBlock: number
  signal?: AbortSignal
}): Promise<BalanceChange[]> {
  if (subscribed.size === 0) return []
  const moves = findBalanceMovements({ rows, subscribed })

  // Pairs to follow: every subscribed pair whose balance the batch read.
  const last = new Map<string, bigint>()
  const pairs: Pair[] = []
  for (const [address, balance] of reads.native) {
    if (!subscribed.has(address)) continue
    pairs.push({ address, asset: 'native' })
    last.set(`${address}|native`, balance)
  }
  for (const [key, balance] of reads.erc20Balances) {
    const [token, holder] = key.split('|') as [Address, Address]
    if (!subscribed.has(holder)) continue
    pairs.push({ address: holder, asset: token })
    last.set(`${holder}|${token}`, balance)
  }
  if (pairs.length === 0) return []

  // Reads needed per block: just before the batch, and each earlier block with a movement.
  const needed = new Map<number, Pair[]>()
  const need = (block: number, pair: Pair) => {
    const list = needed.get(block) ?? []
    list.push(pair)
    needed.set(block, list)
  }
  const blocksOf = new Map<string, number[]>()
  for (const pair of pairs) {
    const key = `${pair.address}|${pair.asset}`
    const blocks = [...(moves.get(key)?.keys() ?? [])].filter((b) => b < toBlock)
    blocks.sort((a, b) => a - b)
    blocks.push(toBlock)
    blocksOf.set(key, blocks)
    if (fromBlock > 0) need(fromBlock - 1, pair)
    for (const b of blocks) if (b < toBlock) need(b, pair)
  }
  // Each read names its block by hash (EIP-1898), as the batch's own reads do: the batch's
  // blocks, and the parent of its first.
  const hashes = new Map<number, Hex>()
  const first = rows.blocks[0]
  if (first) hashes.set(Number(first.number) - 1, first.parent_hash as Hex)
  for (const b of rows.blocks) hashes.set(Number(b.number), b.hash as Hex)
  const values = new Map<string, bigint>()
  await Promise.all(
    [...needed].map(async ([block, list]) => {
      const natives = list.filter((p) => p.asset === 'native').map((p) => p.address)
      const tokens = list.filter((p) => p.asset !== 'native')
      // Token and native balances of the block in the same calls.
      const { results, native } = await readAtBlock({
        rpc,
        blockNumber: BigInt(block),
        blockHash: hashes.get(block),
        calls: tokens.map((p) => ({
          to: p.asset as Address,
          data: encodeAddressCall(BALANCE_OF_SELECTOR, p.address),
        })),
        native: natives,
        signal,
      })
      for (const [address, balance] of native) values.set(`${block}|${address}|native`, balance)
      tokens.forEach((p, i) => {
        const result = results[i]
        values.set(
          `${block}|${p.address}|${p.asset}`,
          (result ? decodeUint(result) : undefined) ?? 0n,
        )
      })
    }),
  )

  const changes: BalanceChange[] = []
  for (const pair of pairs) {
    const key = `${pair.address}|${pair.asset}`
    let previous = fromBlock > 0 ? (values.get(`${fromBlock - 1}|${key}`) ?? 0n) : 0n
    for (const block of blocksOf.get(key) ?? []) {
      const value =
        block === toBlock ? (last.get(key) ?? 0n) : (values.get(`${block}|${key}`) ?? 0n)
      if (value !== previous) {
        const move = moves.get(key)?.get(block)
        changes.push({
          address: pair.address,
          asset: pair.asset,
          blockNumber: block,
          before: previous,
          after: value,
          txHash: move?.txHash || undefined,
          counterparty: move?.counterparty,
        })
      }
      previous = value
    }
  }
  return changes
}
