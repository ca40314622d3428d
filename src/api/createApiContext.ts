import { randomBytes } from 'node:crypto'
import type { Redis } from 'ioredis'
import { createAccounts } from '../accounts/createAccounts.ts'
import { createMeter } from '../accounts/createMeter.ts'
import type { CatalogueChain } from '../chains/catalogue.ts'
import { type StablecoinRegistry, stablecoinRegistry } from '../chains/stablecoins.ts'
import type { ResponseProfile } from '../config/responseProfiles.ts'
import type { ChainConfig } from '../config/types.ts'
import type { Logger } from '../internal/logger.ts'
import type { Store } from '../store/createStore.ts'
import type { SvmChain } from '../svm/createSvmChain.ts'
import type { WebhookUrlPolicy } from '../webhooks/checkWebhookUrl.ts'
import type { ApiContext, NodeHead } from './apiContext.ts'
import { createApiRpc } from './createApiRpc.ts'
import { createCursors } from './createCursors.ts'
import { createStoppedChains } from './createStoppedChains.ts'
import { createDefiDeployments } from './defi/createDefiDeployments.ts'
import { createRateLimiter } from './metering/createRateLimiter.ts'

/** Builds the API's dependencies from the store and config; `close()` flushes metering. */
export function createApiContext({
  store,
  reads = store,
  catalogue,
  chains,
  logger,
  cursorSecret = randomBytes(32),
  redis,
  nodeHeads = () => [],
  readyMaxLagBlocks,
  keyHeaders = [],
  responseProfile = 'default',
  https = { tls: false, loopback: true, trustProxy: false },
  // The shipped registry plus each chain's configured `stablecoins`.
  stablecoins = stablecoinRegistry(
    chains.flatMap((c) => c.stablecoins.map((address) => ({ chainId: c.chainId, address }))),
  ),
  webhookUrls = { allowHttp: false, allowPrivate: false },
  svm = new Map(),
}: {
  store: Store
  /** A read replica of `store` for data answers; its owner closes it. Default `store`. */
  reads?: Store
  catalogue: readonly CatalogueChain[]
  chains: readonly ChainConfig[]
  logger: Logger
  /** Replicas must share it so that one's cursors work on another. */
  cursorSecret?: string | Buffer
  redis?: Redis
  nodeHeads?: () => NodeHead[]
  readyMaxLagBlocks?: number | undefined
  keyHeaders?: readonly string[]
  /** Config `server.responseProfile` (default `default`). */
  responseProfile?: ResponseProfile
  https?: ApiContext['https']
  stablecoins?: StablecoinRegistry
  webhookUrls?: WebhookUrlPolicy
  /** SVM chains by name; their owner closes them. */
  svm?: ReadonlyMap<string, SvmChain>
}): ApiContext & { close(): Promise<void> } {
  const meter = createMeter({ store })
  let warnedAt = 0
  const rateLimiter = createRateLimiter({
    ...(redis ? { redis } : {}),
    onFallback: (error) => {
      if (Date.now() - warnedAt < 60_000) return
      warnedAt = Date.now()
      logger.warn(
        { err: error },
        'Redis is unavailable: rate limits are counted in this replica alone until it is back (said at most once a minute)',
      )
    },
  })
  const evmRpc = createApiRpc({ chains, logger })
  const defiDeployments = createDefiDeployments({ evmRpc, logger })
  // Checked at start where the catalogue serves DeFi positions, so a disowned entry shows in
  // the log right away (each check is kept; a node that is down is asked again on first use).
  for (const chain of chains)
    if (catalogue.find((c) => c.chainId === chain.chainId)?.endpoints.defi_positions)
      void defiDeployments.forChain(chain)
  return {
    store,
    reads,
    accounts: createAccounts({ store }),
    meter,
    rateLimiter,
    cursors: createCursors({ secret: cursorSecret }),
    catalogue,
    chains,
    logger,
    nodeHeads,
    stoppedChains: createStoppedChains({ store, nodeHeads, logger }),
    readyMaxLagBlocks,
    keyHeaders,
    responseProfile,
    https,
    stablecoins,
    webhookUrls,
    svm,
    evmRpc,
    defiDeployments,
    async close() {
      evmRpc.close()
      await meter.close()
      await rateLimiter.close()
    },
  }
}
