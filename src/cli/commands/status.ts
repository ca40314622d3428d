import type { ScryConfig } from '../../config/types.ts'
import { createRpcClient } from '../../evm/rpc/createRpcClient.ts'
import { BaseError } from '../../internal/errors.ts'
import { createStore } from '../../store/createStore.ts'
import { readIndexerHolders } from '../../store/readIndexerHolders.ts'
import { redactUrl } from '../../utils/redactUrl.ts'
import { formatTable } from '../formatTable.ts'

/** One chain's line of `scry status` (also its `--json` item). */
type ChainStatus = {
  chain_id: number
  name: string
  indexed_block: number | null
  indexed_hash: string | null
  node_head: number | null
  /** Why the node gave no head. */
  node_error?: string
  /** The chain the node answers for, when it is another chain's node (then no head). */
  node_chain_id?: number
  lag_blocks: number | null
  /** The process holding the chain's indexer lock (PostgreSQL), null when none is known. */
  indexer: { host: string; pid: number; since: string; active: boolean } | null
  /** Why the chain's indexer stopped (a reorg past finality, PostgreSQL); null while it runs. */
  stopped: string | null
}

/**
 * `scry status`: per chain, indexed head against node head, then exit: 0 when every node
 * answered and no indexer stopped, 1 otherwise (the rest is still shown; scripts and
 * monitors can tell).
 * A table, or with `json` one JSON object `{chains: [...]}` on stdout.
 */
export async function runStatus({
  config,
  json = false,
}: {
  config: ScryConfig
  json?: boolean
}): Promise<number> {
  const store = createStore({ url: config.database, mustExist: true })
  try {
    await store.ping()
    const holders = await readIndexerHolders(store)
    // Every chain the database holds, configured or not (one read).
    const checkpoints = new Map(
      (
        await store.db
          .selectFrom('checkpoints')
          .select(['chain_id', 'block_number', 'block_hash'])
          .orderBy('chain_id')
          .execute()
      ).map((r) => [Number(r.chain_id), { block: Number(r.block_number), hash: r.block_hash }]),
    )
    const statusOf = (
      chainId: number,
      name: string,
      node: { head: number | null; error?: string; chainId?: number },
    ): ChainStatus => {
      const checkpoint = checkpoints.get(chainId)
      const holder = holders.get(chainId)
      const indexed = checkpoint?.block ?? null
      return {
        chain_id: chainId,
        name,
        indexed_block: indexed,
        indexed_hash: checkpoint?.hash ?? null,
        node_head: node.head,
        ...(node.error === undefined ? {} : { node_error: node.error }),
        ...(node.chainId === undefined ? {} : { node_chain_id: node.chainId }),
        lag_blocks: node.head !== null && indexed !== null ? node.head - indexed : null,
        indexer: holder
          ? {
              host: holder.host,
              pid: holder.pid,
              since: new Date(holder.since * 1000).toISOString(),
              active: holder.active,
            }
          : null,
        stopped: holder?.stopped ?? null,
      }
    }
    const chains = await Promise.all(
      config.chains.map(async (chain) => {
        const rpc = createRpcClient({
          urls: chain.rpc,
          retryCount: 1,
          timeoutMs: 5_000,
          chainId: chain.expectedChainId,
        })
        try {
          // Another chain's node would give a head that means nothing here, and a backup of
          // another chain is never used (`scry start` refuses both).
          const wrong = await rpc.checkChainIds!()
          const block =
            wrong.length === 0 && (await rpc.request<string>({ method: 'eth_blockNumber' }))
          return block
            ? statusOf(chain.chainId, chain.name, { head: Number(BigInt(block)) })
            : statusOf(chain.chainId, chain.name, {
                head: null,
                error: wrong
                  .map(
                    (w) =>
                      `the node at ${redactUrl(w.url)} is chain ${w.chainId}, not ${chain.expectedChainId}`,
                  )
                  .join('; '),
                chainId: wrong[0]!.chainId,
              })
        } catch (error) {
          const message = error instanceof BaseError ? error.shortMessage : String(error)
          return statusOf(chain.chainId, chain.name, { head: null, error: message })
        } finally {
          rpc.close()
        }
      }),
    )
    // Chains the database holds but no RPC URL here names: shown, and said (no lag known).
    const configured = new Set(config.chains.map((c) => c.chainId))
    const unconfigured = [...checkpoints.keys()]
      .filter((chainId) => !configured.has(chainId))
      .map((chainId) =>
        statusOf(
          chainId,
          config.catalogue.find((c) => c.chainId === chainId)?.name ?? `chain_${chainId}`,
          { head: null, error: NO_RPC },
        ),
      )
    chains.push(...unconfigured)
    process.stdout.write(json ? `${JSON.stringify({ chains })}\n` : formatStatus(chains))
    for (const c of unconfigured) {
      process.stderr.write(
        `error: no RPC URL for ${label(c)}, which this database has indexed; give it (--rpc ${c.chain_id}=<url>, SCRY_RPC_${c.chain_id}, chains.${c.chain_id}.rpc) to see its lag.\n`,
      )
    }
    const silent = chains
      .filter((c) => c.node_head === null && c.node_chain_id === undefined)
      .filter((c) => c.node_error !== NO_RPC)
      .map(label)
    for (const c of chains) {
      if (c.node_chain_id === undefined) continue
      process.stderr.write(
        `error: the node of ${label(c)} is chain ${c.node_chain_id}; give this chain's node (--rpc ${c.chain_id}=<url>, SCRY_RPC_${c.chain_id}, chains.${c.chain_id}.rpc).\n`,
      )
    }
    if (silent.length > 0) {
      process.stderr.write(
        `error: no answer from the node of ${silent.join(', ')}; check its RPC URL (--rpc, SCRY_RPC_<chainId>, chains.<id>.rpc) and that the node is up.\n`,
      )
    }
    for (const c of chains) {
      if (c.stopped !== null) process.stderr.write(`error: ${label(c)} stopped: ${c.stopped}\n`)
    }
    return chains.every((c) => c.node_head !== null && c.stopped === null) ? 0 : 1
  } finally {
    await store.close()
  }
}

/** `node_error` of a chain the database holds that no RPC URL here names. */
const NO_RPC = 'no RPC URL given'

const label = (c: ChainStatus) => `${c.name} (${c.chain_id})`

function formatStatus(chains: readonly ChainStatus[]): string {
  if (chains.length === 0) {
    return 'No chains configured, and none indexed in this database (give --rpc <chainId>=<url>).\n'
  }
  const table = [
    ['chain', 'indexed block', 'indexed hash', 'node head', 'lag', 'indexer'],
    ...chains.map((c) => [
      label(c),
      c.indexed_block === null ? 'not started' : String(c.indexed_block),
      c.indexed_hash ?? '-',
      c.node_chain_id !== undefined
        ? `chain ${c.node_chain_id}'s node`
        : c.node_error === NO_RPC
          ? 'no RPC URL'
          : c.node_head === null
            ? `unreachable (${c.node_error})`
            : String(c.node_head),
      c.lag_blocks === null ? '-' : String(c.lag_blocks),
      c.indexer
        ? `${c.indexer.host} pid ${c.indexer.pid} since ${c.indexer.since}${c.indexer.active ? '' : ' (stopped, no standby yet)'}`
        : '-',
    ]),
  ]
  return formatTable(table)
}
