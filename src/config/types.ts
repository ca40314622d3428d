import type { CatalogueChain } from '../chains/catalogue.ts'
import type { CatalogueOverride } from '../chains/resolveCatalogue.ts'
import type { DefiDeployment } from '../defi/defiDeployments.ts'
import type { DefiProtocolEntry } from '../defi/defiProtocolEntry.ts'
import type { DexFactory } from '../evm/poolTypes.ts'
import type { Address } from '../evm/types.ts'

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent'

export const LOG_LEVELS: readonly LogLevel[] = [
  'trace',
  'debug',
  'info',
  'warn',
  'error',
  'fatal',
  'silent',
]

export type TracesMode = 'auto' | 'debug' | 'parity' | 'off'

/** What the positions endpoints do with ERC4626 vaults nobody listed (`ChainConfig`). */
export type UnlistedVaults = 'value' | 'list' | 'off'

export const UNLISTED_VAULTS: readonly UnlistedVaults[] = ['value', 'list', 'off']

/** The resolved configuration: defaults < config file < environment < CLI flags. */
export type ScryConfig = {
  /**
   * `postgres://…` (or `postgresql://…`), or a SQLite file path (absolute; `:memory:` kept).
   * Default: `<dataDir>/scry.sqlite`. Env `SCRY_DATABASE`, flag `--database`.
   */
  database: string
  /**
   * A PostgreSQL read replica of `database` (`postgres://…`): API processes read data answers
   * from it; writes (keys, usage, subscriptions) and status stay on `database`. Its lag is in
   * `/v1/status` and `/metrics`. Env `SCRY_DATABASE_READ`, flag `--database-read`. Default none.
   */
  databaseRead: string | undefined
  /** Absolute directory for local state. Default `.scry` under the working directory. */
  dataDir: string
  /**
   * Default `127.0.0.1:8080`. Env `SCRY_HOST`, `SCRY_PORT`; flags `--host`, `--port`.
   * `tls`: certificate and key files (`server.tlsCert`/`server.tlsKey`, `SCRY_TLS_CERT`/
   * `SCRY_TLS_KEY`); without them plain HTTP is served only on a loopback host, or behind a
   * proxy when `trustProxy` is on and the request came as `X-Forwarded-Proto: https`.
   */
  server: {
    host: string
    port: number
    tls: { cert: string; key: string } | undefined
    trustProxy: boolean
    /**
     * Response profile of answers to keys without one and to keyless requests: `default`
     * (interface.md's names) or `sim` (the hosted API's published names; docs/migrating.md).
     * Env `SCRY_RESPONSE_PROFILE`, flag `--response-profile`. Default `default`.
     */
    responseProfile: import('./responseProfiles.ts').ResponseProfile
    /**
     * `/ready` answers 503 when every chain is more than this many blocks behind its node.
     * Env `SCRY_READY_MAX_LAG_BLOCKS`, flag `--ready-max-lag-blocks`. Default: unset (lag
     * does not make an API process unready; a fresh backfill would take every replica out).
     */
    readyMaxLagBlocks: number | undefined
  }
  /** `auth.headerAliases`: extra header names accepted for the API key. Default none. */
  auth: { headerAliases: string[] }
  /** `redis://…` to share rate-limit counters between API replicas. Env `SCRY_REDIS`. */
  redis: string | undefined
  /** NFT metadata fetching: IPFS gateway, and whether private addresses may be fetched. */
  nft: { ipfsGateway: string; allowPrivateFetch: boolean }
  /**
   * Webhooks. `allowHttp`: accept http:// webhook URLs (development; default false).
   * `allowPrivateAddresses`: accept URLs whose host is a private, loopback or link-local
   * address (default false). `concurrency`: deliveries in flight per worker process (default 4).
   */
  webhooks: { allowHttp: boolean; allowPrivateAddresses: boolean; concurrency: number }
  /**
   * `standbyTakeoverSeconds`: on PostgreSQL, a standby indexer takes a chain from a holder
   * that has not reported (a heartbeat a second) for this long: one stopped by a signal or on
   * a paused machine keeps its lock otherwise. Env `SCRY_STANDBY_TAKEOVER_SECONDS`, flag
   * `--standby-takeover-seconds`. Default 120, at least 10.
   */
  indexer: { standbyTakeoverSeconds: number }
  /**
   * Secret that authenticates pagination cursors; replicas must share it. Env
   * `SCRY_CURSOR_SECRET` only (secrets are never read from the config file); default: a
   * random secret kept in `<dataDir>/cursor-secret`.
   */
  cursorSecret: string | undefined
  /** Default `info`. Env `SCRY_LOG_LEVEL`, flag `--log-level`. */
  log: { level: LogLevel }
  /** Built-in chain catalogue with the config file's `catalogue` entries applied. */
  catalogue: CatalogueChain[]
  /** Enabled chains (those with at least one RPC URL), ascending by chain id. */
  chains: ChainConfig[]
  /** Absolute path of the config file that was read, if any. */
  configFile: string | undefined
  /** Enabled SVM chains (`solana`, `eclipse`: those with an RPC URL). See `readSvmConfig`. */
  svm: SvmChainConfig[]
}

/** One SVM chain: `svm.<name>` in the file, `SCRY_RPC_<NAME>`, `--rpc <name>=<url>`. */
export type SvmChainConfig = {
  name: 'solana' | 'eclipse'
  /** RPC endpoints (http, https), tried in order with failover. */
  rpc: string[]
  /** The USD anchor. Default: the chain's canonical USDC (`SVM_DEFAULTS`). */
  usdcMint: string
  /** Program id per pool layout whose pools price tokens. Default: mainnet ids. */
  dexPrograms: Partial<Record<import('../svm/pools/poolTypes.ts').PoolType, string>>
  /** JSON-RPC requests per HTTP batch. Default 50. */
  rpcBatchSize: number
}

/** Per-chain settings. Env and flags: see `CHAIN_FIELDS`. */
export type ChainConfig = {
  chainId: number
  /** Catalogue name. */
  name: string
  /** RPC endpoints (http, https, ws, wss), tried in order with failover. */
  rpc: string[]
  /** First block to index. Default 0. */
  startBlock: number
  /** Blocks behind the head that can still reorg (undo records are kept). Default 64. */
  finalityDepth: number
  /**
   * `auto` (default): `debug_traceBlockByHash`, else `trace_block`, else no traces.
   * `debug` / `parity`: only that method (no traces, with a warning, if the node lacks it);
   * `parity` is much faster than `debug` on nodes that have both (anvil, reth, erigon).
   * `off`: never ask for traces.
   */
  traces: TracesMode
  /** Blocks per committed batch, at most. Default 100. */
  batchSize: number
  /**
   * Transactions per committed batch, about: windows shrink below `batchSize` blocks on dense
   * chains (memory follows transactions). Default 1000.
   */
  batchTransactions: number
  /** Windows of blocks fetched ahead in parallel during backfill. Default 4. */
  fetchConcurrency: number
  /** JSON-RPC requests per HTTP batch. Default 50. */
  rpcBatchSize: number
  /** Head polling interval in milliseconds. Default 1000. */
  pollIntervalMs: number
  /** Equals `chainId`; the indexer checks it against `eth_chainId` at start. */
  expectedChainId: number
  /** USD anchors (= 1.00): the chain's canonical USDC by default (`src/prices/dexDeployments.ts`). */
  usdc: Address[]
  /** The native asset is priced as this token (WETH, WPOL, …); shipped default per chain. */
  wrappedNative: Address | null
  /** Factories whose pools may set prices; shipped defaults per chain. */
  dexFactories: DexFactory[]
  /** A pool whose priced side holds less than this (USD, ×2) never sets a price. Default 1000. */
  minPoolLiquidityUsd: number
  /**
   * Where DeFi positions are read from (position managers, V2 fork names, listed vaults, Aave
   * pools, Lido); replaces the chain's shipped entry (`src/defi/defiDeployments.ts`). Default:
   * the shipped entry. Config `defiProtocols` sets it (`toDefiDeployment`); `scry dev` sets it
   * for its local chains.
   */
  defi?: DefiDeployment | undefined
  /**
   * ERC4626 vaults detected at ingest but not listed for the chain (`protocol: "Unknown"`):
   * `value` (default, as Sim) shows them with their USD value when self-consistent
   * (`checkVaultConsistency`), `list` shows them with holdings but no USD value (adding 0),
   * `off` leaves them out. Env `SCRY_UNLISTED_VAULTS_<id>`, flag `--unlisted-vaults <id>=…`.
   */
  unlistedVaults: UnlistedVaults
  /**
   * ERC4626 vaults never shown in DeFi positions, listed or detected (a vault that lies about
   * its assets, or one an operator does not want to vouch for). Default none.
   */
  deniedVaults: Address[]
  /**
   * Tokens the stablecoin answers (`/balances/{address}/stablecoins`, `asset_class=stablecoin`)
   * list on this chain beside the shipped registry (`src/chains/stablecoins.ts`). Default none.
   */
  stablecoins: Address[]
  /**
   * The chain spec's `genesis.json` (absolute path): its `alloc` names the accounts funded at
   * genesis, whose balances are read in the first batch. Default none: Scry asks the node
   * (`debug_accountRange` at block 0, or a dev node's own accounts). See docs/indexer.md.
   */
  genesis: string | undefined
}

/** What the config layers set per chain (`defiProtocols` becomes `defi`). */
export type ChainSettings = Omit<ChainConfig, 'chainId' | 'name' | 'expectedChainId' | 'defi'> & {
  /** Undefined: the shipped deployment; a list (even empty) replaces it. */
  defiProtocols: DefiProtocolEntry[] | undefined
}

/** Per-chain options in the config file; `rpc` may be one URL or several. */
export type ChainFileConfig = {
  rpc?: string | string[]
  startBlock?: number
  finalityDepth?: number
  traces?: TracesMode
  batchSize?: number
  batchTransactions?: number
  fetchConcurrency?: number
  rpcBatchSize?: number
  pollIntervalMs?: number
  usdc?: string | string[]
  wrappedNative?: string
  /** `"uniswap_v2:0x…"` / `"uniswap_v3:0x…"` entries. */
  dexFactories?: string | string[]
  minPoolLiquidityUsd?: number
  /** Path of the chain's genesis.json (relative to the working directory). */
  genesis?: string
  /** `value` | `list` | `off`. */
  unlistedVaults?: UnlistedVaults
  deniedVaults?: string | string[]
  stablecoins?: string | string[]
  /** `"aave_v3:0x…"`, `"uniswap_v3:0x…:0x…:Name"`, … (`DEFI_PROTOCOL_FORMS`). */
  defiProtocols?: string | string[]
}

/** Shape of `scry.config.json` / the default export of `scry.config.ts`. */
export type ScryConfigFile = {
  database?: string
  databaseRead?: string
  dataDir?: string
  server?: {
    host?: string
    port?: number
    tlsCert?: string
    tlsKey?: string
    trustProxy?: boolean
    responseProfile?: 'default' | 'sim'
    readyMaxLagBlocks?: number
  }
  auth?: { headerAliases?: string[] }
  log?: { level?: LogLevel }
  /** Keyed by chain id: `{ "8453": { "rpc": ["https://…"] } }`. */
  chains?: Record<string, ChainFileConfig>
  /** Extra chains, or overrides of built-in ones (by `chainId`). */
  catalogue?: CatalogueOverride[]
  webhooks?: { allowHttp?: boolean; allowPrivateAddresses?: boolean; concurrency?: number }
  indexer?: { standbyTakeoverSeconds?: number }
}

/**
 * CLI flags as the command line gives them (raw text; validated by `resolveConfig`).
 * Per-chain flags take `<chainId>=<value>` and repeat; `rpc` also takes comma-separated URLs.
 */
export type ConfigFlags = {
  config?: string | undefined
  database?: string | undefined
  databaseRead?: string | undefined
  dataDir?: string | undefined
  host?: string | undefined
  port?: string | undefined
  logLevel?: string | undefined
  tlsCert?: string | undefined
  tlsKey?: string | undefined
  trustProxy?: string | undefined
  responseProfile?: string | undefined
  readyMaxLagBlocks?: string | undefined
  authHeaderAlias?: string | undefined
  redis?: string | undefined
  ipfsGateway?: string | undefined
  nftAllowPrivateFetch?: string | undefined
  webhooksAllowHttp?: string | undefined
  webhooksAllowPrivateAddresses?: string | undefined
  webhooksConcurrency?: string | undefined
  standbyTakeoverSeconds?: string | undefined
  rpc?: string[] | undefined
  startBlock?: string[] | undefined
  finalityDepth?: string[] | undefined
  traces?: string[] | undefined
  batchSize?: string[] | undefined
  batchTransactions?: string[] | undefined
  fetchConcurrency?: string[] | undefined
  rpcBatchSize?: string[] | undefined
  pollIntervalMs?: string[] | undefined
  usdc?: string[] | undefined
  wrappedNative?: string[] | undefined
  dexFactory?: string[] | undefined
  minPoolLiquidityUsd?: string[] | undefined
  genesis?: string[] | undefined
  unlistedVaults?: string[] | undefined
  deniedVault?: string[] | undefined
  stablecoin?: string[] | undefined
  defiProtocol?: string[] | undefined
}
