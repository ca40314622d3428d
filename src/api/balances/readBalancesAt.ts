import type { Kysely } from 'kysely'
import { encodeFunctionData, toHex } from 'viem'
import { erc20Abi } from '../../evm/abis.ts'
import { decodeUint } from '../../evm/decode/decodeMetadataString.ts'
import type { RpcCall, RpcClient } from '../../evm/rpc/createRpcClient.ts'
import { RpcResponseError } from '../../evm/rpc/errors.ts'
import type { Address } from '../../evm/types.ts'
import type { Database } from '../../store/schema.ts'
import { ApiError } from '../ApiError.ts'
import type { BalanceRow, BalanceSelection } from './readBalances.ts'

/** A past block a balance answer is read at. */
export type PastBlock = { chainId: number; blockNumber: number; blockTime: number }

/**
 * What nodes answer for state they no longer keep: geth/Nethermind "missing trie node",
 * Erigon/Reth "pruned", anvil --prune-history "BlockOutOfRangeError", Besu "world state
 * not available", and the like.
 */
const MISSING_STATE =
  /missing trie node|pruned|BlockOutOfRange|state (?:is )?not available|state unavailable|historical state|state histor(?:y|ies)|world state/i

export function isMissingStateError(error: unknown): boolean {
  return error instanceof RpcResponseError && MISSING_STATE.test(error.rpcMessage)
}

/** The blocks of a chain this store can answer for: first indexed block to the checkpoint. */
async function servedRange(
  db: Kysely<Database>,
  chainId: number,
): Promise<{ first: number; head: number } | undefined> {
  const [first, head] = await Promise.all([
    db
      .selectFrom('blocks')
      .select('number')
      .where('chain_id', '=', chainId)
      .orderBy('number')
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom('checkpoints')
      .select('block_number')
      .where('chain_id', '=', chainId)
      .executeTakeFirst(),
  ])
  return first && head
    ? { first: Number(first.number), head: Number(head.block_number) }
    : undefined
}

async function blockTime(db: Kysely<Database>, chainId: number, number: number): Promise<number> {
  const row = await db
    .selectFrom('blocks')
    .select('timestamp')
    .where('chain_id', '=', chainId)
    .where('number', '=', number)
    .executeTakeFirstOrThrow()
  return Number(row.timestamp)
}

const outOfRange = (chainId: number, what: string, range?: { first: number; head: number }) =>
  new ApiError(
    'BAD_REQUEST',
    range
      ? `Invalid ${what}: chain ${chainId} is served from block ${range.first} to block ${range.head}.`
      : `Invalid ${what}: chain ${chainId} has no indexed blocks yet.`,
  )

/**
 * The block to read a chain at: `blockNumber` itself, or the last indexed block at or before
 * `at` (unix seconds; a time past the indexed head gives the head). Outside the served range
 * (before the first indexed block, above the indexed head) → 400 naming the range. Block
 * times only grow, so `at` is a binary search over the blocks' primary key.
 */
export async function resolvePastBlock({
  db,
  chainId,
  target,
}: {
  db: Kysely<Database>
  chainId: number
  target: { blockNumber: number } | { at: number }
}): Promise<PastBlock> {
  const range = await servedRange(db, chainId)
  const what = 'blockNumber' in target ? 'block_number' : 'at'
  if (!range) throw outOfRange(chainId, what)
  if ('blockNumber' in target) {
    const n = target.blockNumber
    if (n < range.first || n > range.head) throw outOfRange(chainId, what, range)
    return { chainId, blockNumber: n, blockTime: await blockTime(db, chainId, n) }
  }
  const headTime = await blockTime(db, chainId, range.head)
  if (headTime <= target.at) return { chainId, blockNumber: range.head, blockTime: headTime }
  let lo = range.first
  let loTime = await blockTime(db, chainId, lo)
  if (loTime > target.at) throw outOfRange(chainId, what, range)
  let hi = range.head // time(hi) > at, time(lo) <= at
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2)
    const t = await blockTime(db, chainId, mid)
    if (t <= target.at) {
      lo = mid
      loTime = t
    } else hi = mid
  }
  return { chainId, blockNumber: lo, blockTime: loTime }
}

/**
 * A wallet's non-zero balances at a past block of one chain. Which tokens: every ERC20 whose
 * first inbound transfer to the wallet is at or before the block (or that the wallet held
 * before indexing began), from the wallet's `token_balances` rows; the amounts: the node's
 * `eth_getBalance` and `balanceOf` at that block, in one batch, so they are exact whatever
 * the token does. A node without that block's state → 422 HISTORICAL_STATE_UNAVAILABLE.
 */
export async function readBalanceRowsAt({
  db,
  rpc,
  selection,
  block,
}: {
  db: Kysely<Database>
  rpc: RpcClient
  selection: Omit<BalanceSelection, 'chainIds'>
  block: PastBlock
}): Promise<BalanceRow[]> {
  const { chainId, blockNumber } = block
  const at = { blockNumber, blockTime: block.blockTime }
  const { only } = selection
  const native = selection.natives && (!only || only.hasNative(chainId))
  let tokens: {
    token: string
    symbol: string | null
    name: string | null
    decimals: number | null
  }[] = []
  if (selection.tokens && (!only || only.tokens(chainId).length > 0)) {
    let query = db
      .selectFrom('token_balances as b')
      .innerJoin('tokens as t', (j) =>
        j.onRef('t.chain_id', '=', 'b.chain_id').onRef('t.address', '=', 'b.token'),
      )
      .select(['b.token', 't.symbol', 't.name', 't.decimals'])
      .where('b.address', '=', selection.wallet)
      .where('b.chain_id', '=', chainId)
      .where('t.standard', '=', 'erc20')
      .where('t.first_block', '<=', blockNumber)
      .where((eb) =>
        eb.or([
          eb('b.first_acquired_block', '<=', blockNumber),
          eb('b.first_acquired_block', 'is', null),
        ]),
      )
    if (only) query = query.where('b.token', 'in', only.tokens(chainId))
    tokens = await query.execute()
  }
  const tag = toHex(blockNumber)
  const calls: RpcCall[] = [
    ...(native ? [{ method: 'eth_getBalance', params: [selection.wallet, tag] }] : []),
    ...tokens.map((t) => ({
      method: 'eth_call',
      params: [
        {
          to: t.token,
          data: encodeFunctionData({
            abi: erc20Abi,
            functionName: 'balanceOf',
            args: [selection.wallet],
          }),
        },
        tag,
      ],
    })),
  ]
  if (calls.length === 0) return []
  let results: Awaited<ReturnType<RpcClient['batch']>>
  try {
    results = await rpc.batch(calls)
  } catch (error) {
    throw (
      missingState(error, block) ??
      new ApiError(
        'UNAVAILABLE',
        `The node of chain ${chainId} did not answer; try again shortly.`,
        {
          headers: { 'Retry-After': '5' },
          cause: error,
        },
      )
    )
  }
  for (const r of results) {
    if (!r.ok) {
      const missing = missingState(r.error, block)
      if (missing) throw missing
    }
  }
  const out: BalanceRow[] = []
  let i = 0
  if (native) {
    const r = results[i++]
    if (!r?.ok || typeof r.result !== 'string') {
      throw new ApiError('UNAVAILABLE', `The node of chain ${chainId} did not give a balance.`, {
        headers: { 'Retry-After': '5' },
      })
    }
    const amount = BigInt(r.result)
    if (amount > 0n) out.push({ chainId, address: 'native', amount, at })
  }
  for (const t of tokens) {
    const r = results[i++]
    // A token whose balanceOf reverts at that block has no balance to show.
    const amount =
      r?.ok && typeof r.result === 'string' ? decodeUint(r.result as `0x${string}`) : undefined
    if (amount === undefined || amount === 0n) continue
    out.push({
      chainId,
      address: t.token as Address,
      amount,
      at,
      ...(t.symbol !== null ? { symbol: t.symbol } : {}),
      ...(t.name !== null ? { name: t.name } : {}),
      ...(t.decimals !== null ? { decimals: t.decimals } : {}),
    })
  }
  return out
}

function missingState(error: unknown, block: PastBlock): ApiError | undefined {
  const cause = (error as { cause?: unknown })?.cause
  if (!isMissingStateError(error) && !isMissingStateError(cause)) return undefined
  return new ApiError(
    'HISTORICAL_STATE_UNAVAILABLE',
    `The node of chain ${block.chainId} no longer has the state of block ${block.blockNumber} (it is not an archive node); balances at that block cannot be read.`,
    { cause: error },
  )
}
