import type { SvmChainConfig } from '../../config/types.ts'
import type { Logger } from '../../internal/logger.ts'
import { buildSvmWorld, type SvmWorld } from '../../svm/dev/buildSvmWorld.ts'
import { type Surfpool, startSurfpool } from '../../svm/dev/startSurfpool.ts'
import { SVM_CHAIN_NAMES, SVM_DEFAULTS } from '../../svm/svmDefaults.ts'

export type LocalSvmChain = { config: SvmChainConfig; node: Surfpool; world: SvmWorld }

/**
 * A Surfpool node for `solana` and one for `eclipse` (offline: nothing is fetched from
 * mainnet), each seeded with the demo SVM world. Returns what started before a failure too,
 * through `started`, so the caller can stop it.
 */
export async function startLocalSvmChains({
  logger,
  write,
  signal,
  started,
}: {
  logger: Logger
  write: (text: string) => void
  signal: AbortSignal
  started: LocalSvmChain[]
}): Promise<LocalSvmChain[]> {
  for (const name of SVM_CHAIN_NAMES) {
    if (signal.aborted) break
    const t0 = Date.now()
    const node = startSurfpool()
    try {
      const world = await buildSvmWorld({
        chain: name,
        rpcUrl: node.rpcUrl,
        wsUrl: node.wsUrl,
        payerSecretKey: node.payerSecretKey,
      })
      started.push({
        node,
        world,
        config: {
          name,
          rpc: [node.rpcUrl],
          usdcMint: SVM_DEFAULTS[name].usdcMint,
          dexPrograms: SVM_DEFAULTS[name].dexPrograms,
          // Surfpool refuses JSON-RPC batches
          rpcBatchSize: 1,
        },
      })
    } catch (error) {
      node.stop()
      throw error
    }
    const seconds = ((Date.now() - t0) / 1000).toFixed(1)
    write(
      `${name}: surfpool at ${node.rpcUrl} (offline), ${started.at(-1)!.world.wallets.length} wallets, ${started.at(-1)!.world.mints.length} mints, ${started.at(-1)!.world.pools.length} pools in ${seconds} s\n`,
    )
    logger.info({ chain: name, rpc: node.rpcUrl }, 'Surfpool started and seeded')
  }
  return started
}

/** The SVM lines of the "Try:" block. */
export function formatSvmTryBlock({
  chains,
  apiUrl,
  apiKey,
}: {
  chains: readonly LocalSvmChain[]
  apiUrl: string
  apiKey: string
}): string {
  const solana = chains.find((c) => c.config.name === 'solana')
  if (!solana) return ''
  const api = (path: string) => `curl -s '${apiUrl}${path}' -H 'X-Scry-Api-Key: ${apiKey}'`
  const wallet = solana.world.busyWallet
  return [
    'Solana and Eclipse (surfpool):',
    `  ${api(`/beta/svm/balances/${wallet}?chains=all`)}`,
    `  ${api(`/beta/svm/transactions/${wallet}?limit=2`)}`,
    `SVM demo wallets: ${solana.world.wallets.join(', ')}`,
    '',
  ].join('\n')
}
