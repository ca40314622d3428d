import { toHex } from 'viem'
import type { TracesMode } from '../../config/types.ts'
import type { RpcClient } from '../rpc/createRpcClient.ts'
import { isMethodUnsupported } from '../rpc/shouldRetry.ts'

/** How this chain's node gives receipts, traces and state; detected once per indexer start. */
export type FetchCapabilities = {
  receipts: 'block' | 'transaction'
  traces: 'debug' | 'parity' | 'off'
  /**
   * The node may answer state reads of its head block from the state it is building for the
   * next block (anvil does: the same block hash gave two balances, before and after the next
   * block's transaction). State read at the head is then read again once a later block
   * exists, when the head's state is settled.
   */
  liveHeadState: boolean
}

/** Nodes seen serving a head block's state from the next block being mined. */
const LIVE_HEAD_STATE = /^anvil\//i

/**
 * Probes the node at `blockNumber`: `eth_getBlockReceipts`, else per-transaction receipts;
 * with traces `auto`, `debug_traceBlockByHash` (callTracer), else `trace_block`, else off;
 * `debug` and `parity` ask for that method only; `web3_clientVersion` names nodes whose head
 * state is live (`liveHeadState`).
 * Only "method not supported" answers mean no; other errors propagate.
 */
export async function detectCapabilities({
  rpc,
  blockNumber,
  traces,
  signal,
}: {
  rpc: RpcClient
  blockNumber: bigint
  traces: TracesMode
  signal?: AbortSignal
}): Promise<FetchCapabilities> {
  const tag = toHex(blockNumber)
  const opts = signal ? { signal } : {}
  const supports = async (method: string, params: unknown[]): Promise<boolean> => {
    try {
      await rpc.request({ method, params }, opts)
      return true
    } catch (error) {
      if (isMethodUnsupported(error)) return false
      throw error
    }
  }
  const receipts = (await supports('eth_getBlockReceipts', [tag])) ? 'block' : 'transaction'
  const client = await rpc.request<string>({ method: 'web3_clientVersion' }, opts).catch(() => '')
  const liveHeadState = LIVE_HEAD_STATE.test(String(client))
  const found = (t: FetchCapabilities['traces']): FetchCapabilities => ({
    receipts,
    traces: t,
    liveHeadState,
  })
  if (traces === 'off') return found('off')
  const hash = async () =>
    (
      await rpc.request<{ hash: string } | null>(
        { method: 'eth_getBlockByNumber', params: [tag, false] },
        opts,
      )
    )?.hash
  if (
    traces !== 'parity' &&
    (await supports('debug_traceBlockByHash', [await hash(), { tracer: 'callTracer' }]))
  ) {
    return found('debug')
  }
  if (traces !== 'debug' && (await supports('trace_block', [tag]))) return found('parity')
  return found('off')
}
