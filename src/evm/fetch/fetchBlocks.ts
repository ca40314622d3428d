import { toHex } from 'viem'
import { RetryableError } from '../../internal/errors.ts'
import { type BlockTraceEntry, decodeBlockTraces } from '../decode/decodeBlockTraces.ts'
import { decodeParityTraces, type ParityTrace } from '../decode/decodeParityTraces.ts'
import type { RpcCall, RpcClient, RpcItemResult } from '../rpc/createRpcClient.ts'
import type { Hex } from '../types.ts'
import type { ChainBlock } from './chainBlock.ts'
import type { FetchCapabilities } from './detectCapabilities.ts'
import { parseBlock, type RpcBlockJson, type RpcReceiptJson } from './parseBlock.ts'

/**
 * Fetches blocks `from..to` (inclusive) with transactions, receipts and, where the chain has
 * them, traces, in as few batched round trips as the node allows. All or nothing: a block
 * the node does not have yet, or an answer that does not fit, is a `RetryableError`.
 */
export async function fetchBlocks({
  rpc,
  from,
  to,
  caps,
  signal,
  background = false,
}: {
  rpc: RpcClient
  from: bigint
  to: bigint
  caps: FetchCapabilities
  signal?: AbortSignal
  /** Read ahead of need: the node's other calls go first (`RpcCallOptions`). */
  background?: boolean
}): Promise<ChainBlock[]> {
  const opts = { ...(signal ? { signal } : {}), background }
  const numbers: bigint[] = []
  for (let n = from; n <= to; n++) numbers.push(n)

  const calls: RpcCall[] = numbers.map((n) => ({
    method: 'eth_getBlockByNumber',
    params: [toHex(n), true],
  }))
  if (caps.receipts === 'block') {
    for (const n of numbers) calls.push({ method: 'eth_getBlockReceipts', params: [toHex(n)] })
  }
  // Tracing a block can take the node a second or more: one request per block, so that each
  // has its own timeout instead of a batch of them sharing one. Every answer must be of the
  // block fetched, not of a sibling the node switched to meanwhile: callTracer answers carry
  // no block hash, so they are asked by hash once the blocks are known; trace_block has only
  // a number form, but each of its traces names its block's hash, checked below.
  const trace = (call: RpcCall) =>
    rpc.request(call, opts).then((result): RpcItemResult => ({ ok: true, result }))
  const [results, parityResults] = await Promise.all([
    rpc.batch(calls, opts),
    caps.traces === 'parity'
      ? Promise.all(numbers.map((n) => trace({ method: 'trace_block', params: [toHex(n)] })))
      : Promise.resolve([]),
  ])
  const count = numbers.length
  const blocks = results.slice(0, count).map((r, i) => need<RpcBlockJson>(r, `block ${numbers[i]}`))
  const traceResults =
    caps.traces === 'debug'
      ? await Promise.all(
          blocks.map((b) =>
            trace({ method: 'debug_traceBlockByHash', params: [b.hash, { tracer: 'callTracer' }] }),
          ),
        )
      : parityResults

  let receiptLists: RpcReceiptJson[][]
  if (caps.receipts === 'block') {
    receiptLists = results
      .slice(count, 2 * count)
      .map((r, i) => need<RpcReceiptJson[]>(r, `receipts of block ${numbers[i]}`))
  } else {
    const hashes = blocks.flatMap((b) => b.transactions.map((t) => t.hash))
    const receiptResults = await rpc.batch<RpcReceiptJson>(
      hashes.map((h) => ({ method: 'eth_getTransactionReceipt', params: [h] })),
      opts,
    )
    const receipts = receiptResults.map((r, i) => need<RpcReceiptJson>(r, `receipt ${hashes[i]}`))
    let k = 0
    receiptLists = blocks.map((b) => {
      const start = k
      k += b.transactions.length
      return receipts.slice(start, k)
    })
  }

  return blocks.map((json, i): ChainBlock => {
    const parsed = parseBlock({ block: json, receipts: receiptLists[i] ?? [] })
    if (parsed.number !== numbers[i]) {
      throw new RetryableError(`The node answered block ${parsed.number} for ${numbers[i]}.`)
    }
    let internalTransfers: ChainBlock['internalTransfers']
    const traceResult = traceResults[i]
    if (caps.traces === 'debug') {
      const traces = need<BlockTraceEntry[]>(traceResult, `traces of block ${parsed.number}`)
      try {
        internalTransfers = decodeBlockTraces({
          traces,
          blockNumber: parsed.number,
          txHashes: parsed.transactions.map((t) => t.hash as Hex),
        })
      } catch (error) {
        // A node that could not trace one transaction may manage on the next attempt.
        throw new RetryableError(`Unusable traces for block ${parsed.number}.`, {
          details:
            'If this repeats, the node cannot trace the block (pruned state, or a node started from a snapshot of later blocks): point the chain at an archive node, or set its traces to off (--traces <chainId>=off; internal transfers are then not seen, docs/indexer.md).',
          cause: error,
        })
      }
    } else if (caps.traces === 'parity') {
      const traces = need<ParityTrace[]>(traceResult, `traces of block ${parsed.number}`)
      if (
        traces.some((t) => t.blockHash !== undefined && t.blockHash.toLowerCase() !== parsed.hash)
      )
        throw new RetryableError(`Traces of block ${parsed.number} are from another block.`)
      internalTransfers = decodeParityTraces({ traces, blockNumber: parsed.number })
    }
    return { ...parsed, internalTransfers }
  })
}

function need<T>(result: RpcItemResult | undefined, what: string): T {
  if (!result) throw new RetryableError(`No answer for ${what}.`)
  if (!result.ok) {
    throw new RetryableError(`The node could not give ${what}.`, {
      details: result.error.shortMessage,
      cause: result.error,
    })
  }
  if (result.result === null || result.result === undefined) {
    throw new RetryableError(`The node does not have ${what} yet.`)
  }
  return result.result as T
}
