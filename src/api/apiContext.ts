import type { Accounts, ResolvedKey } from '../accounts/createAccounts.ts'
import type { Meter } from '../accounts/createMeter.ts'
import type { CatalogueChain } from '../chains/catalogue.ts'
import type { StablecoinRegistry } from '../chains/stablecoins.ts'
import type { ResponseProfile } from '../config/responseProfiles.ts'
import type { ChainConfig } from '../config/types.ts'
import type { Logger } from '../internal/logger.ts'
import type { Store } from '../store/createStore.ts'
import type { SvmChain } from '../svm/createSvmChain.ts'
import type { WebhookUrlPolicy } from '../webhooks/checkWebhookUrl.ts'
import type { ApiRpc } from './createApiRpc.ts'
import type { Cursors } from './createCursors.ts'
import type { StoppedChains } from './createStoppedChains.ts'
import type { DefiDeployments } from './defi/createDefiDeployments.ts'
import type { RateLimiter } from './metering/createRateLimiter.ts'

/**
 * A chain this process indexes: the node's head as its indexer last saw it, and why that
 * indexer stopped, once it has (a reorg past finality: the chain's answers no longer move).
 */
export type NodeHead = { chainId: number; nodeHead: number | undefined; stopped?: string }

/** Everything routes need; built once by `createApiServer`'s caller. */
export type ApiContext = {
  /** The primary database: keys, usage, subscriptions, status; every write. */
  store: Store
  /** Where data answers are read: the read replica (`--database-read`), else `store`. */
  reads: Store
  accounts: Accounts
  meter: Meter
  rateLimiter: RateLimiter
  cursors: Cursors
  catalogue: readonly CatalogueChain[]
  /** Chains this instance indexes. */
  chains: readonly ChainConfig[]
  /** Stablecoins per chain (shipped list plus operator additions). */
  stablecoins: StablecoinRegistry
  logger: Logger
  /** Node heads known to this process (indexer role); empty in an API-only process. */
  nodeHeads: () => NodeHead[]
  /** Chains whose indexer stopped (this process's, or any process's on PostgreSQL), and why. */
  stoppedChains: StoppedChains
  /** `/ready` is 503 when every chain lags more blocks than this (unset: lag is ignored). */
  readyMaxLagBlocks: number | undefined
  /** Extra header names accepted for the API key (config `auth.headerAliases`). */
  keyHeaders: readonly string[]
  /** Profile of answers to keys without one, and to requests without a key. */
  responseProfile: ResponseProfile
  /** Plain HTTP is refused unless bound to loopback or behind a trusted https proxy. */
  https: { tls: boolean; loopback: boolean; trustProxy: boolean }
  /** Webhook URL rules (config `webhooks`); default https only, public addresses only. */
  webhookUrls: WebhookUrlPolicy
  /** Enabled SVM chains by name (`solana`, `eclipse`); empty when none is configured. */
  svm: ReadonlyMap<string, SvmChain>
  /** Read-only node clients of the EVM chains, for answers read at request time. */
  evmRpc: ApiRpc
  /** Each chain's DeFi deployment, checked against its node once. */
  defiDeployments: DefiDeployments
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's key, once `auth` has run (undefined on public routes without a key). */
    apiKey: ResolvedKey | undefined
    /** Compute units this request costs; charged when the response is 2xx. */
    cuCost: number
    /** The cost was reserved against the key's quota (`meterRequest`). */
    cuReserved: boolean
  }
  interface FastifyContextConfig {
    /** No key needed (health, docs, supported chains). */
    public?: boolean
  }
}
