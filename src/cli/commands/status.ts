import type { ScryConfig } from '../../config/types.ts'
import { createRpcClient } from '../../evm/rpc/createRpcClient.ts'
import { BaseError } from '../../internal/errors.ts'
import { createStore } from '../../store/createStore.ts'
import { type IndexerHolder, readIndexerHolders } from '../../store/readIndexerHolders.ts'
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
    const chains = await Promise.all(
      config.chains.map(async (chain): Promise<ChainStatus> => {
        const checkpoint = await store.getCheckpoint(chain.chainId)
        const rpc = createRpcClient({ urls: chain.rpc, retryCount: 1, timeoutMs: 5_000 })
        let head: number | null = null
        let nodeError: string | undefined
        let nodeChain: number | undefined
        try {
          // Another chain's node would give a head that means nothing here (`scry start`
          // refuses it the same way).
          const [id, block] = await Promise.all([
            rpc.request<string>({ method: 'eth_chainId' }),
            rpc.request<string>({ method: 'eth_blockNumber' }),
          ])
          if (Number(BigInt(id)) === chain.expectedChainId) head = Number(BigInt(block))
          else {
            nodeChain = Number(BigInt(id))
            nodeError = `the node is chain ${nodeChain}, not ${chain.expectedChainId}`
          }
        } catch (error) {
          nodeError = error instanceof BaseError ? error.shortMessage : String(error)
        } finally {
          rpc.close()
        }
        const indexed = checkpoint?.blockNumber ?? null
        const holder = holders.get(chain.chainId)
        return {
          chain_id: chain.chainId,
          name: chain.name,
          indexed_block: indexed,
          indexed_hash: checkpoint?.blockHash ?? null,
          node_head: head,
          ...(nodeError === undefined ? {} : { node_error: nodeError }),
          ...(nodeChain === undefined ? {} : { node_chain_id: nodeChain }),
          lag_blocks: head !== null && indexed !== null ? head - indexed : null,
          indexer: holder ? holderOf(holder) : null,
          stopped: holder?.stopped ?? null,
        }
      }),
    )
    // Chains the database holds but no RPC URL here names: shown, and said (no lag known).
    const configured = new Set(config.chains.map((c) => c.chainId))
    const others = await store.db
      .selectFrom('checkpoints')
      .select(['chain_id', 'block_number', 'block_hash'])
      .orderBy('chain_id')
      .execute()
    const unconfigured: ChainStatus[] = others
      .filter((r) => !configured.has(Number(r.chain_id)))
      .map((r) => {
        const chainId = Number(r.chain_id)
        const holder = holders.get(chainId)
        return {
          chain_id: chainId,
          name: config.catalogue.find((c) => c.chainId === chainId)?.name ?? `chain_${chainId}`,
          indexed_block: Number(r.block_number),
          indexed_hash: r.block_hash,
          node_head: null,
          node_error: NO_RPC,
          lag_blocks: null,
          indexer: holder ? holderOf(holder) : null,
          stopped: holder?.stopped ?? null,
        }
      })
    chains.push(...unconfigured)
    process.stdout.write(json ? `${JSON.stringify({ chains })}\n` : formatStatus(chains))
    for (const c of unconfigured) {
      process.stderr.write(
        `error: no RPC URL for ${label(c)}, which this database has indexed; give it (--rpc ${c.chain_id}=<url>, SCRY_RPC_${c.chain_id}, chains.${c.chain_id}.rpc) to see its lag.\n`,
      )
    }
    const silent = chains
      .filter((c) => c.node_head === null && c.node_chain_id === undefined)
      .filter((c) => !unconfigured.includes(c))
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

const holderOf = (holder: IndexerHolder): ChainStatus['indexer'] => ({
  host: holder.host,
  pid: holder.pid,
  since: new Date(holder.since * 1000).toISOString(),
  active: holder.active,
})

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
