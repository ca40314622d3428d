import { setMaxListeners } from 'node:events'
import type { ChainConfig } from '../config/types.ts'
import { probeStoredTokens } from '../defi/probeStoredTokens.ts'
import { detectCapabilities } from '../evm/fetch/detectCapabilities.ts'
import { findGenesisAccounts, type GenesisAccounts } from '../evm/genesis/findGenesisAccounts.ts'
import { createRpcClient, type RpcClient } from '../evm/rpc/createRpcClient.ts'
import { watchNewHeads } from '../evm/rpc/watchNewHeads.ts'
import { ConfigError, FatalIndexerError, NonRetryableError } from '../internal/errors.ts'
import type { Logger } from '../internal/logger.ts'
import { createPriceGraph } from '../prices/createPriceGraph.ts'
import type { BatchWrite } from '../store/applyBatch.ts'
import type { Fence, Store } from '../store/createStore.ts'
import { redactUrl } from '../utils/redactUrl.ts'
import { sleep } from '../utils/sleep.ts'
import { revertWebhookDeliveries } from '../webhooks/revertWebhookDeliveries.ts'
import { createProgress, type Progress } from './createProgress.ts'
import { createStateView } from './createStateView.ts'
import { createWindowSizer } from './createWindowSizer.ts'
import { findCommonAncestor } from './findCommonAncestor.ts'
import { runPipeline } from './runPipeline.ts'

export type ChainIndexer = {
  chainId: number
  rpc: RpcClient
  /**
   * The node's head block as last seen, for status and lag metrics; undefined before it is
   * known, and while indexing has failed for over a minute with no answer from the node.
   */
  nodeHead(): number | undefined
  /** Indexes until the signal aborts. Rejects only with errors that must stop this chain. */
  run(signal: AbortSignal): Promise<void>
}

/** How long the last head is reported while indexing fails and the node does not answer. */
const NODE_HEAD_STALE_MS = 60_000

/**
 * One chain's indexer: brings the store to the node's head through the batch pipeline
 * (`runPipeline`: fetch, prepare and commit overlapping), then follows the head (polling,
 * woken early by WebSocket `newHeads` where a ws url is configured). Blocks within
 * `finalityDepth` of the head keep undo records; a head whose parent is not our block walks
 * back to the common ancestor, reverts, and indexes the new branch.
 * `fence` runs in every write's transaction (the standby lock's check, `holdChainLease`).
 */
export function createChainIndexer({
  chain,
  store,
  logger,
  onProgress,
  rpc: givenRpc,
  fence,
}: {
  chain: ChainConfig
  store: Store
  logger: Logger
  onProgress?: (progress: Progress) => void
  rpc?: RpcClient
  fence?: Fence
}): ChainIndexer {
  const chainId = chain.chainId
  const log = logger.child({ chain_id: chainId })
  const rpc =
    givenRpc ??
    createRpcClient({
      urls: chain.rpc,
      batchSize: chain.rpcBatchSize,
      logger: log,
      chainId: chain.expectedChainId,
    })
  const view = createStateView({ store })
  const sizer = createWindowSizer(chain)
  const graph = createPriceGraph({ store, chain })
  const commit = (write: BatchWrite) => store.applyBatch(write, fence)
  let seq = 0
  const nextSeq = () => ++seq

  /**
   * Every node of the chain serves it: each that answers now is asked its chain id (one that
   * does not is checked by the client before its first use).
   */
  async function checkNode(signal: AbortSignal): Promise<void> {
    const nodes = ((await rpc.checkChainIds?.(signal)) ?? []).map(
      (w) => `the node at ${redactUrl(w.url)} is chain ${w.chainId}`,
    )
    if (nodes.length === 0) {
      // The client's own check stands for its endpoints; a client given without one is asked.
      const reported = Number(
        BigInt(await rpc.request<string>({ method: 'eth_chainId' }, { signal })),
      )
      if (reported !== chain.expectedChainId) {
        nodes.push(`the node at ${chain.rpc.map(redactUrl).join(', ')} is chain ${reported}`)
      }
    }
    if (nodes.length > 0) {
      throw new ConfigError(`Chain ${chainId}: ${nodes.join('; ')}.`, {
        details: `Point every --rpc ${chainId}=… at a node of chain ${chainId}.`,
      })
    }
  }

  let lastHead: number | undefined
  /** Since when the indexing loop has failed without the node answering its head again. */
  let failingSince: number | undefined
  async function head(signal: AbortSignal): Promise<{ number: number; hash: string }> {
    const block = await rpc.request<{ number: string; hash: string } | null>(
      { method: 'eth_getBlockByNumber', params: ['latest', false] },
      { signal },
    )
    if (!block) throw new NonRetryableError(`Chain ${chainId}: the node has no latest block.`)
    lastHead = Number(BigInt(block.number))
    failingSince = undefined
    return { number: lastHead, hash: block.hash.toLowerCase() }
  }

  let genesis: Promise<GenesisAccounts> | undefined
  /** Found once per process (a failed attempt is tried again on the next call). */
  function genesisAccounts(signal: AbortSignal): Promise<GenesisAccounts> {
    genesis ??= findGenesisAccounts({ rpc, genesisFile: chain.genesis, signal }).then(
      (found) => {
        log.info(
          { sources: found.sources, accounts: found.addresses.length },
          found.sources.length === 0
            ? 'Genesis allocations unknown: give the chain spec with --genesis to serve balances of accounts funded at genesis that never transacted'
            : 'Genesis allocations found',
        )
        return found
      },
      (error: unknown) => {
        genesis = undefined
        throw error
      },
    )
    return genesis
  }

  /** Tokens stored before ERC4626 detection existed are probed once, beside the pipeline. */
  function probeInBackground(signal: AbortSignal): Promise<void> {
    return probeStoredTokens({ store, rpc, chainId, signal }).then(
      ({ probed, found }) => {
        if (probed > 0)
          log.info(
            { tokens: probed, defiTokens: found },
            'Stored tokens probed for vaults and Aave tokens',
          )
      },
      (error: unknown) => {
        if (!signal.aborted)
          log.warn({ err: error }, 'ERC4626 probe of stored tokens failed; tried again at start')
      },
    )
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
    // Webhooks: delivered events of the reverted blocks go out again as removed.
    const landed = await store.revert({
      chainId,
      toBlock: ancestor,
      alongside: revertWebhookDeliveries,
      ...(fence ? { fence } : {}),
    })
    log.warn(
      { from_block: from, common_ancestor: ancestor, resumed_at: landed.blockNumber },
      'Reorg: reverted to the common ancestor',
    )
  }

  async function run(signal: AbortSignal): Promise<void> {
    // Every in-flight request of a window listens on it (more than Node's default of 10).
    setMaxListeners(0, signal)
    // A run starts from the store alone (an earlier run, under an earlier lock, may have
    // left prepared batches behind).
    view.clear()
    await checkNode(signal)
    // The probe ends with the run: it never writes after the run returned (or lost its lock).
    const probe = new AbortController()
    signal.addEventListener('abort', () => probe.abort(signal.reason), { once: true })
    const probing = probeInBackground(probe.signal)
    try {
      await follow(signal)
    } finally {
      probe.abort()
      await probing
    }
  }

  /**
   * The node's capabilities, probed at its head. A reorg can take that block away between the
   * two calls (a trace of a hash the node no longer has is an error, not "unsupported"): the
   * probe is tried again at the new head, twice, before its error stands.
   */
  async function detectAtHead(signal: AbortSignal) {
    for (let tries = 1; ; tries++) {
      try {
        const blockNumber = BigInt((await head(signal)).number)
        return await detectCapabilities({ rpc, blockNumber, traces: chain.traces, signal })
      } catch (error) {
        if (signal.aborted || tries === 3) throw error
        log.warn({ err: error }, 'Probing the node failed; trying again at its head')
      }
    }
  }

  async function follow(signal: AbortSignal): Promise<void> {
    const caps = await detectAtHead(signal)
    log.info({ receipts: caps.receipts, traces: caps.traces }, 'Node capabilities')
    if (chain.traces !== 'off' && caps.traces === 'off') {
      log.warn(
        { traces: chain.traces },
        'The node gives no call traces: internal ETH transfers are not indexed, and an address paid only by contracts keeps the native balance read when something last touched it',
      )
    }

    // A database that began this chain at a later block keeps its range: indexing resumes at
    // the checkpoint, and a lower startBlock configured since is not filled in.
    const resumed = await store.getCheckpoint(chainId)
    if (resumed && chain.startBlock <= resumed.blockNumber) {
      const at = chain.startBlock
      if (!(await store.getBlockHashes({ chainId, from: at, to: at })).has(at)) {
        log.warn(
          { start_block: at, indexed_block: resumed.blockNumber },
          'startBlock is below where this database began indexing the chain: the blocks before that are not indexed (index into an empty database to include them)',
        )
      }
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
    const idle = () =>
      new Promise<void>((resolve) => {
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

    const progress = createProgress({ chainId })
    let lastReport = 0
    // The price graph holds what the store holds (plus prepared batches): loaded at start and
    // again after anything that dropped prepared batches or reverted committed ones.
    let graphLoaded = false
    const abandon = () => {
      view.clear()
      graphLoaded = false
    }
    let failures = 0
    let saidWaiting = false
    while (!signal.aborted) {
      try {
        const latest = await head(signal)
        const headBlock = latest.number
        const checkpoint = await store.getCheckpoint(chainId)
        if (!checkpoint && chain.startBlock > headBlock && !saidWaiting) {
          // Nothing to index yet: said once, or the operator sees nothing for as long.
          saidWaiting = true
          log.info(
            { start_block: chain.startBlock, node_head: headBlock },
            'Waiting for the node to reach the start block',
          )
        }
        // A new branch no longer than ours (or a node that resynced) shows only here: the
        // parent-hash check of the pipeline needs a block past our checkpoint.
        if (checkpoint && checkpoint.blockNumber > headBlock) {
          const ours = await store.getBlockHashes({ chainId, from: headBlock, to: headBlock })
          if (ours.get(headBlock) === latest.hash) {
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
          abandon()
          await handleReorg({ from: Math.min(checkpoint.blockNumber, headBlock), signal })
          continue
        }
        if (!graphLoaded) {
          await graph.load()
          graphLoaded = true
        }
        // The chain's first batch also reads the accounts funded at genesis (again after a
        // revert past the first block): no transaction shows them.
        const seedNative = checkpoint ? [] : (await genesisAccounts(signal)).addresses
        const result = await runPipeline({
          chain,
          rpc,
          store,
          view,
          graph,
          caps,
          sizer,
          from: (checkpoint?.blockNumber ?? chain.startBlock - 1) + 1,
          parentHash: checkpoint?.blockHash,
          to: headBlock,
          headBlock,
          seedNative,
          commit,
          nextSeq,
          logger: log,
          signal,
          onCommitted: (batch) => {
            const p = progress.record({
              blocks: batch.blocks,
              transfers: batch.transfers,
              indexedBlock: batch.toBlock,
              headBlock,
            })
            const now = Date.now()
            if (now - lastReport < 2_000 && batch.toBlock < headBlock) return
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
          },
        }).catch((error: unknown) => {
          abandon()
          throw error
        })
        failures = 0
        switch (result.type) {
          case 'done':
            await store.pruneUndo({ chainId, belowBlock: headBlock - chain.finalityDepth })
            await idle()
            break
          case 'reorg':
            abandon()
            await handleReorg({ from: result.at, signal })
            break
          case 'moved':
            abandon()
            break
          default: {
            const never: never = result
            throw new Error(`unknown pipeline result ${JSON.stringify(never)}`)
          }
        }
      } catch (error) {
        if (signal.aborted) return
        if (error instanceof FatalIndexerError || error instanceof ConfigError) throw error
        failures++
        failingSince ??= Date.now()
        const delay = Math.min(30_000, 500 * 2 ** Math.min(failures, 6))
        log.warn(
          { err: error, retry_in_ms: delay },
          'Indexing failed; retrying from the checkpoint',
        )
        await sleep(delay, signal).catch(() => {})
      }
    }
  }

  // While indexing has failed for a while and the node has not answered its head since (it is
  // down, or unreachable), its last head is not reported: a node that went away must not read
  // as "no lag" (status, /ready, the lag metric).
  const nodeHead = () =>
    failingSince !== undefined && Date.now() - failingSince > NODE_HEAD_STALE_MS
      ? undefined
      : lastHead
  return { chainId, rpc, run, nodeHead }
}
