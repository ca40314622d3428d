import type { ScryConfig } from '../../config/types.ts'
import { createRpcClient } from '../../evm/rpc/createRpcClient.ts'
import { BaseError } from '../../internal/errors.ts'
import { createStore } from '../../store/createStore.ts'
import { readIndexerHolders } from '../../store/readIndexerHolders.ts'

/**
 * `scry status`: per chain, indexed head against node head, then exit: 0 when every node
 * answered, 1 when one did not (the table still shows the rest; scripts and monitors can tell).
 */
export async function runStatus({ config }: { config: ScryConfig }): Promise<number> {
  const store = createStore({ url: config.database, mustExist: true })
  try {
    await store.ping()
    const holders = await readIndexerHolders(store)
    const rows = await Promise.all(
      config.chains.map(async (chain) => {
        const checkpoint = await store.getCheckpoint(chain.chainId)
        const rpc = createRpcClient({ urls: chain.rpc, retryCount: 1, timeoutMs: 5_000 })
        let head: number | string
        try {
          head = Number(BigInt(await rpc.request<string>({ method: 'eth_blockNumber' })))
        } catch (error) {
          head = `unreachable (${error instanceof BaseError ? error.shortMessage : String(error)})`
        } finally {
          rpc.close()
        }
        const indexed = checkpoint?.blockNumber
        const lag = typeof head === 'number' && indexed !== undefined ? head - indexed : undefined
        const holder = holders.get(chain.chainId)
        return [
          `${chain.name} (${chain.chainId})`,
          indexed === undefined ? 'not started' : String(indexed),
          checkpoint?.blockHash ?? '-',
          String(head),
          lag === undefined ? '-' : String(lag),
          holder
            ? `${holder.host} pid ${holder.pid} since ${new Date(holder.since * 1000).toISOString()}${holder.active ? '' : ' (stopped, no standby yet)'}`
            : '-',
        ]
      }),
    )
    const table = [
      ['chain', 'indexed block', 'indexed hash', 'node head', 'lag', 'indexer'],
      ...rows,
    ]
    const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => (r[i] ?? '').length)))
    for (const row of table) {
      process.stdout.write(
        `${row
          .map((cell, i) => cell.padEnd(widths[i] ?? 0))
          .join('  ')
          .trimEnd()}\n`,
      )
    }
    if (rows.length === 0)
      process.stdout.write('No chains configured (give --rpc <chainId>=<url>).\n')
    const silent = rows.filter((r) => r[3]?.startsWith('unreachable')).map((r) => r[0])
    if (silent.length === 0) return 0
    process.stderr.write(
      `error: no answer from the node of ${silent.join(', ')}; check its RPC URL (--rpc, SCRY_RPC_<chainId>, chains.<id>.rpc) and that the node is up.\n`,
    )
    return 1
  } finally {
    await store.close()
  }
}
