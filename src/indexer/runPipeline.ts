import { toHex } from 'viem'
import type { ChainConfig } from '../config/types.ts'
import type { ChainBlock } from '../evm/fetch/chainBlock.ts'
import type { FetchCapabilities } from '../evm/fetch/detectCapabilities.ts'
import { fetchBlocks } from '../evm/fetch/fetchBlocks.ts'
import type { RpcClient } from '../evm/rpc/createRpcClient.ts'
import type { Address } from '../evm/types.ts'
import { NonRetryableError, RetryableError } from '../internal/errors.ts'
import type { Logger } from '../internal/logger.ts'
import type { PriceGraph } from '../prices/createPriceGraph.ts'
import type { BatchWrite } from '../store/applyBatch.ts'
import type { Store } from '../store/createStore.ts'
import { sleep } from '../utils/sleep.ts'
import type { StateView } from './createStateView.ts'
import type { WindowSizer } from './createWindowSizer.ts'
import { mayEndAtHead, prepareBatch } from './prepareBatch.ts'
import { splitWindow } from './splitWindow.ts'
import { type StartedBatch, startBatch } from './startBatch.ts'

export type PipelineResult =
  /** Every block up to `to` is committed. */
  | { type: 'done' }
  /** The next block's parent is not the last one prepared: a reorg below `at` (committed). */
  | { type: 'reorg'; at: number }
  /** The node moved while a window or a batch was read: look at the head again. */
  | { type: 'moved' }

export type CommittedBatch = {
  fromBlock: number
  toBlock: number
  blocks: number
  transfers: number
  transactions: number
}

/** Commits one batch with its checkpoint (the indexer adds its lock check). */
export type CommitBatch = (write: BatchWrite) => Promise<void>

/**
 * Brings the store from block `from` (its parent `parentHash` is committed) up to `to`, with
 * the stages overlapping: up to `fetchConcurrency` windows are fetched while one batch is
 * prepared (store reads, the rest of its node reads, prices, webhook events), the next one is
 * started (derived, the bulk of its node reads sent: `startBatch`) and up to
 * `maxPendingCommits` prepared batches are written. Batches commit in order, each with its
 * checkpoint, so a crash leaves the store at a batch boundary. Each queue is bounded, each
 * window holds about `batchTransactions` transactions (`sizer`) and is one batch, or several
 * when it turned out more than twice as dense as guessed (`splitWindow`): memory stays flat
 * however long the range and however dense its blocks. Before returning, every commit started
 * has settled; on a reorg or a failure the caller must `view.clear()` and reload `graph`
 * (prepared, uncommitted batches are dropped, and a started one with its reads).
 */
export async function runPipeline({
  chain,
  rpc,
  store,
  view,
  graph,
  caps,
  sizer,
  from,
  parentHash,
  to,
  headBlock,
  seedNative,
  commit,
  maxPendingCommits = 2,
  nextSeq,
  onCommitted,
  logger,
  signal,
}: {
  chain: ChainConfig
  rpc: RpcClient
  store: Store
  view: StateView
  graph: PriceGraph
  caps: FetchCapabilities
  /** Sizes windows from the density seen; kept by the caller across runs. */
  sizer: WindowSizer
  from: number
  /** Hash of block `from - 1` as committed; undefined when starting at the start block. */
  parentHash: string | undefined
  to: number
  /** The node's head when the range was chosen (batches within finality keep undo). */
  headBlock: number
  /** Addresses read in the first batch (genesis allocations); empty after it. */
  seedNative: readonly Address[]
  commit: CommitBatch
  maxPendingCommits?: number
  /** Sequence numbers for the state view, rising over the indexer's life. */
  nextSeq: () => number
  onCommitted: (batch: CommittedBatch) => void
  logger: Logger
  signal: AbortSignal
}): Promise<PipelineResult> {
  const windows: { from: number; to: number; blocks: Promise<ChainBlock[]> }[] = []
  let next = from
  const fill = () => {
    // Until a window showed the chain's density, one window at a time (its size is a guess).
    const limit = sizer.known ? chain.fetchConcurrency : 1
    while (windows.length < limit && next <= to) {
      const end = Math.min(next + sizer.nextBlocks() - 1, to)
      windows.push({ from: next, to: end, blocks: fetchWindow(next, end) })
      next = end + 1
    }
  }
  /**
   * A window's blocks, fetched in the background (`RpcCallOptions`): the batch being prepared
   * and its commit need the node now, the windows ahead only later, so their requests (one
   * `trace_block` per block) do not keep the prepared batch's reads waiting for the client's
   * slots. Against a node 60 ms away: 4–13 % less time (bench/README.md, 2026-11-28).
   */
  function fetchWindow(start: number, end: number): Promise<ChainBlock[]> {
    const blocks = (async () => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await fetchBlocks({
            rpc,
            from: BigInt(start),
            to: BigInt(end),
            caps,
            signal,
            background: true,
          })
        } catch (error) {
          if (signal.aborted || error instanceof NonRetryableError || attempt >= 8) throw error
          // A node whose head went back below the window (a shorter branch, a resynced or
          // lagging endpoint) will not have these blocks: look at the head again at once
          // instead of waiting ~20 s of retries for blocks that no longer exist.
          if (await headBelow(end)) throw new NodeMovedBack(end)
          logger.debug({ err: error, from_block: start, to_block: end }, 'Fetch failed; retrying')
          await sleep(Math.min(5_000, 200 * 2 ** attempt), signal)
        }
      }
    })()
    blocks.catch(() => {}) // awaited below, or abandoned
    return blocks
  }
  async function headBelow(block: number): Promise<boolean> {
    const head = await rpc
      .request<string>({ method: 'eth_blockNumber', params: [] }, { signal })
      .catch(() => undefined)
    return head !== undefined && Number(head) < block
  }

  const pending: Promise<void>[] = []
  let failed: unknown
  const settle = async () => {
    // Never leave a commit running behind the caller (a revert must not race it).
    await Promise.allSettled(pending)
    if (failed) throw failed
  }
  let result: PipelineResult
  try {
    result = await stages()
    await settle()
  } catch (error) {
    await Promise.allSettled(pending)
    if (!(error instanceof BranchLeft)) throw error
    logger.debug(
      { to_block: error.block },
      "The node left a prepared batch's branch before it was written; looking at the head again",
    )
    return { type: 'moved' }
  }
  return result

  async function stages(): Promise<PipelineResult> {
    let seed = seedNative
    // The last block taken into a batch: the next window must follow it.
    let takenHash = parentHash
    let takenNumber = from - 1
    const queue: { blocks: ChainBlock[]; bounds: { from: number; to: number } }[] = []

    /** The next batch, started (`startBatch`), or why there is none. */
    async function take(): Promise<
      { type: 'batch'; batch: StartedBatch; bounds: { from: number; to: number } } | PipelineResult
    > {
      if (queue.length === 0) {
        fill()
        const window = windows.shift()
        if (!window) return { type: 'done' }
        let blocks: ChainBlock[]
        try {
          blocks = await window.blocks
        } catch (error) {
          if (!(error instanceof NodeMovedBack)) throw error
          logger.debug({ to_block: error.block }, 'The node head went back below the window')
          return { type: 'moved' }
        }
        sizer.observe(
          blocks.length,
          blocks.reduce((sum, b) => sum + b.transactions.length, 0),
        )
        const first = blocks[0]
        if (first && takenHash !== undefined && first.parentHash !== takenHash) {
          return { type: 'reorg', at: takenNumber }
        }
        for (let i = 1; i < blocks.length; i++) {
          // The node moved between calls of one window: fetch again.
          if (blocks[i]?.parentHash !== blocks[i - 1]?.hash) return { type: 'moved' }
        }
        // On a chain with prices, no batch spans an hour's start (its price is that hour's).
        const batches = splitWindow(blocks, chain.batchTransactions, chain.dexFactories.length > 0)
        for (const batch of batches) {
          const bounds =
            batches.length === 1
              ? window
              : { from: Number(batch[0]!.number), to: Number(batch[batch.length - 1]!.number) }
          queue.push({ blocks: batch, bounds })
        }
      }
      const { blocks, bounds } = queue.shift()!
      takenHash = blocks[blocks.length - 1]?.hash
      takenNumber = bounds.to
      const toBlock = Number(blocks[blocks.length - 1]?.number ?? bounds.to)
      const batch = startBatch({
        rpc,
        chainId: chain.chainId,
        blocks,
        readAhead: !mayEndAtHead({
          toBlock,
          liveHeadState: caps.liveHeadState,
          knownHead: headBlock,
        }),
        signal,
      })
      return { type: 'batch', batch, bounds }
    }

    // One batch ahead: the next is derived and its bulk reads sent while this one is prepared.
    let next = take()
    for (;;) {
      const current = await next
      if (current.type !== 'batch') return current
      if (failed) throw failed
      next = take()
      next.catch(() => {}) // awaited above, or dropped when this batch ends the run
      const moved = await prepareAndCommit(current.batch, current.bounds)
      if (moved) return moved
    }

    /** One batch of a window: prepared now, committed after the batches before it. */
    async function prepareAndCommit(
      batch: StartedBatch,
      window: { from: number; to: number },
    ): Promise<{ type: 'moved' } | undefined> {
      const prepared = await prepareBatch({
        rpc,
        store,
        state: view,
        graph,
        chain,
        batch,
        keepUndo: window.to > headBlock - chain.finalityDepth,
        seedNative: seed,
        liveHeadState: caps.liveHeadState,
        knownHead: headBlock,
        signal,
      })
      if (prepared.type !== 'prepared') {
        logger.debug(
          { from_block: window.from, to_block: window.to, reason: prepared.type },
          'The node mined past the batch while it read state; looking at the head again',
        )
        return { type: 'moved' }
      }
      seed = []
      const seq = nextSeq()
      view.push(seq, prepared.write.state)
      const done: CommittedBatch = {
        fromBlock: window.from,
        toBlock: window.to,
        blocks: batch.blocks.length,
        transfers: prepared.transfers,
        transactions: prepared.transactions,
      }
      // Commits chain on each other: in order, and none starts after one failed. Each first
      // checks that its last block is still the node's, once all of its reads were made: the
      // round trip overlaps the next batch's preparation instead of ending this one's.
      const last = batch.blocks[batch.blocks.length - 1] as ChainBlock
      const previous = pending[pending.length - 1] ?? Promise.resolve()
      const committing = previous.then(async () => {
        const now = await rpc.request<{ hash: string } | null>(
          { method: 'eth_getBlockByNumber', params: [toHex(last.number), false] },
          { signal },
        )
        if (now?.hash.toLowerCase() !== last.hash) throw new BranchLeft(Number(last.number))
        await commit(prepared.write)
        view.committed(seq)
        onCommitted(done)
      })
      committing.catch((error: unknown) => {
        failed ??= error
      })
      pending.push(committing)
      while (pending.length > maxPendingCommits) await pending.shift()
      return undefined
    }
  }
}

/**
 * A prepared batch's last block is no longer the node's: it and the batches prepared after it
 * are dropped unwritten, and the pipeline ends with `moved`.
 */
class BranchLeft extends RetryableError {
  override name = 'BranchLeft'
  constructor(readonly block: number) {
    super(`The node left the branch of block ${block} before the batch was written.`)
  }
}

/** The node's head is below a block the pipeline was fetching: the window is gone. */
class NodeMovedBack extends RetryableError {
  override name = 'NodeMovedBack'
  constructor(readonly block: number) {
    super(`The node's head went back below block ${block}.`)
  }
}
