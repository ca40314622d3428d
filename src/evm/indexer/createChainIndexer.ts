import { setMaxListeners } from 'node:events'
import type { ChainConfig } from '../../config/types.ts'
import { ConfigError, FatalIndexerError, NonRetryableError } from '../../internal/errors.ts'
import type { Logger } from '../../internal/logger.ts'
import type { Store } from '../../store/createStore.ts'
import { redactUrl } from '../../utils/redactUrl.ts'
import { sleep } from '../../utils/sleep.ts'
import type { ChainBlock } from '../fetch/chainBlock.ts'
import { detectCapabilities, type FetchCapabilities } from '../fetch/detectCapabilities.ts'
import { fetchBlocks } from '../fetch/fetchBlocks.ts'
import { createRpcClient, type RpcClient } from '../rpc/createRpcClient.ts'
import { watchNewHeads } from '../rpc/watchNewHeads.ts'
import { createProgress, type Progress } from './createProgress.ts'
import { findCommonAncestor } from './findCommonAncestor.ts'
import { processBatch } from './processBatch.ts'

export type ChainIndexer = {
  chainId: number
  rpc: RpcClient
  /** The node's head block as last seen, for status and lag metrics. */
  nodeHead(): number | undefined
  /** Indexes until the signal aborts. Rejects only with errors that must stop this chain. */
  run(signal: AbortSignal): Promise<void>
}

type Window = { from: number; to: number; blocks: Promise<ChainBlock[]> }

/**
 * One chain's indexer: backfill from the checkpoint (windows fetched in parallel, applied in
 * order), then follow the head (polling, woken early by WebSocket `newHeads` where a ws url
 * is configured). Blocks within `finalityDepth` of the head keep undo records; a head whose
 * parent is not our block walks back to the common ancestor, reverts, and re-indexes.
 */
export function createChainIndexer({
  chain,
  store,
  logger,
  onProgress,
  rpc: givenRpc,
}: {
  chain: ChainConfig
  store: Store
  logger: Logger
  onProgress?: (progress: Progress) => void
  rpc?: RpcClient
}): ChainIndexer {
  const chainId = chain.chainId
  const log = logger.child({ chain_id: chainId })
  const rpc =
    givenRpc ??
    createRpcClient({
      urls: chain.rpc,
      batchSize: chain.rpcBatchSize,
      logger: log,
    })

  async function checkNode(signal: AbortSignal): Promise<void> {
    const reported = Number(
      BigInt(await rpc.request<string>({ method: 'eth_chainId' }, { signal })),
    )
    if (reported !== chain.expectedChainId) {
      throw new ConfigError(
        `Chain ${chainId}: the node at ${chain.rpc.map(redactUrl).join(', ')} is chain ${reported}.`,
        { details: `Point --rpc ${chainId}=… at a node of chain ${chainId}.` },
      )
    }
  }

  let lastHead: number | undefined
  async function head(signal: AbortSignal): Promise<{ number: number; hash: string }> {
    const block = await rpc.request<{ number: string; hash: string } | null>(
      { method: 'eth_getBlockByNumber', params: ['latest', false] },
      { signal },
    )
    if (!block) throw new NonRetryableError(`Chain ${chainId}: the node has no latest block.`)
    lastHead = Number(BigInt(block.number))
    return { number: lastHead, hash: block.hash.toLowerCase() }
  }

  /** Fetches a window, retrying what a node may answer better in a moment. */
  function fetchWindow(from: number, to: number, caps: FetchCapabilities, signal: AbortSignal) {
    const blocks = (async () => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await fetchBlocks({ rpc, from: BigInt(from), to: BigInt(to), caps, signal })
        } catch (error) {
          if (signal.aborted || error instanceof NonRetryableError || attempt >= 8) throw error
          log.debug({ err: error, from_block: from, to_block: to }, 'Fetch failed; retrying')
          await sleep(Math.min(5_000, 200 * 2 ** attempt), signal)
        }
      }
    })()
    blocks.catch(() => {}) // awaited later, or abandoned after a reorg
    return { from, to, blocks }
  }

  /** Brings the store up to `headBlock`; returns false when a reorg was handled (start over). */
  async function catchUp({
    headBlock,
    caps,
    progress,
    signal,
  }: {
    headBlock: number
    caps: FetchCapabilities
    progress: ReturnType<typeof createProgress>
    signal: AbortSignal
  }): Promise<boolean> {
    const checkpoint = await store.getCheckpoint(chainId)
    let indexed = checkpoint?.blockNumber ?? chain.startBlock - 1
    let indexedHash = checkpoint?.blockHash
    let next = indexed + 1
    const inflight: Window[] = []
    let lastReport = 0
    while (indexed < headBlock) {
      while (inflight.length < chain.fetchConcurrency && next <= headBlock) {
        const to = Math.min(next + chain.batchSize - 1, headBlock)
        inflight.push(fetchWindow(next, to, caps, signal))
        next = to + 1
      }
      const window = inflight.shift()
      if (!window) break
      const blocks = await window.blocks
      const first = blocks[0]
      if (first && indexedHash !== undefined && first.parentHash !== indexedHash) {
        await handleReorg({ from: indexed, signal })
        return false
      }
      for (let i = 1; i < blocks.length; i++) {
        // The node moved between calls of one window: fetch it again.
        if (blocks[i]?.parentHash !== blocks[i - 1]?.hash) return false
      }
      const keepUndo = window.to > headBlock - chain.finalityDepth
      const result = await processBatch({
        rpc,
        store,
        chainId,
        pricing: chain,
        blocks,
        keepUndo,
        signal,
      })
      indexed = window.to
      indexedHash = blocks[blocks.length - 1]?.hash
      const p = progress.record({
        blocks: result.blocks,
        transfers: result.transfers,
        indexedBlock: indexed,
        headBlock,
      })
      const now = Date.now()
      if (now - lastReport >= 2_000 || indexed >= headBlock) {
        lastReport = now
        onProgress?.(p)
        if (p.phase === 'backfill') {
          log.info(
            {
              indexed_block: p.indexedBlock,
              head_block: p.headBlock,
              blocks_left: p.blocksLeft,
              blocks_per_second: Math.round(p.blocksPerSecond * 10) / 10,
              eta_seconds: p.etaSeconds === undefined ? null : Math.round(p.etaSeconds),
            },
            'Backfill progress',
          )
        } else {
          log.debug({ indexed_block: p.indexedBlock }, 'Indexed new blocks')
        }
      }
    }
    return true
  }

  async function handleReorg({ from, signal }: { from: number; signal: AbortSignal }) {
    const ancestor = await findCommonAncestor({
      rpc,
      store,
      chainId,
      from,
      maxDepth: chain.finalityDepth + 1,
      signal,
    })
    const landed = await store.revert({ chainId, toBlock: ancestor })
    log.warn(
      { from_block: from, common_ancestor: ancestor, resumed_at: landed.blockNumber },
      'Reorg: reverted to the common ancestor',
    )
  }

  async function run(signal: AbortSignal): Promise<void> {
    // Every in-flight request of a window listens on it (more than Node's default of 10).
    setMaxListeners(0, signal)
    await checkNode(signal)
    const caps = await detectCapabilities({
      rpc,
      blockNumber: BigInt((await head(signal)).number),
      traces: chain.traces,
      signal,
    })
    log.info({ receipts: caps.receipts, traces: caps.traces }, 'Node capabilities')
    if (chain.traces !== 'off' && caps.traces === 'off') {
      log.warn(
        { traces: chain.traces },
        'The node gives no call traces: internal ETH transfers are not indexed (balances are still read from the node)',
      )
    }

    // Wake early on new heads where a WebSocket endpoint exists; polling covers the rest.
    let wake: (() => void) | undefined
    const wsUrl = chain.rpc.find((u) => /^wss?:\/\//i.test(u))
    if (wsUrl) {
      watchNewHeads({
        url: wsUrl,
        signal,
        onHead: () => wake?.(),
        onError: (error) => log.debug({ err: error }, 'newHeads subscription interrupted'),
      }).catch((error) => log.warn({ err: error }, 'newHeads unavailable; polling only'))
    }

    const progress = createProgress({ chainId })
    let failures = 0
    while (!signal.aborted) {
      try {
        const latest = await head(signal)
        const headBlock = latest.number
        const checkpoint = await store.getCheckpoint(chainId)
        // A new branch no longer than ours (or a node that resynced) shows only here: the
        // parent-hash check in catchUp needs a block past our checkpoint.
        if (checkpoint && checkpoint.blockNumber > headBlock) {
          const ours = await store.getBlockHash({ chainId, blockNumber: headBlock })
          if (ours === latest.hash) {
            // Same branch, the node is only behind (a lagging fallback endpoint): wait for it.
            log.warn(
              { indexed_block: checkpoint.blockNumber, node_head: headBlock },
              'The node is behind the indexed block; waiting',
            )
            await sleep(chain.pollIntervalMs, signal)
            continue
          }
        }
        if (
          checkpoint &&
          (checkpoint.blockNumber > headBlock ||
            (checkpoint.blockNumber === headBlock && checkpoint.blockHash !== latest.hash))
        ) {
          await handleReorg({ from: Math.min(checkpoint.blockNumber, headBlock), signal })
          continue
        }
        const caughtUp = await catchUp({ headBlock, caps, progress, signal })
        await store.pruneUndo({ chainId, belowBlock: headBlock - chain.finalityDepth })
        failures = 0
        if (!caughtUp) continue
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, chain.pollIntervalMs)
          function done() {
            clearTimeout(timer)
            signal.removeEventListener('abort', done)
            wake = undefined
            resolve()
          }
          wake = done
          signal.addEventListener('abort', done, { once: true })
        })
      } catch (error) {
        if (signal.aborted) return
        if (error instanceof FatalIndexerError || error instanceof ConfigError) throw error
        failures++
        const delay = Math.min(30_000, 500 * 2 ** Math.min(failures, 6))
        log.warn(
          { err: error, retry_in_ms: delay },
          'Indexing failed; retrying from the checkpoint',
        )
        await sleep(delay, signal).catch(() => {})
      }
    }
  }

  return { chainId, rpc, run, nodeHead: () => lastHead }
}
