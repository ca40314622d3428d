import { DEFI_PROTOCOL_FORMS } from '../defi/defiProtocolEntry.ts'
import { RESPONSE_PROFILES, type ResponseProfile } from './responseProfiles.ts'
import {
  addressListRule,
  addressRule,
  booleanRule,
  databaseRule,
  defiProtocolListRule,
  dexFactoryListRule,
  headerListRule,
  integerRule,
  oneOfRule,
  type Rule,
  rpcRule,
  textRule,
  urlRule,
} from './rules.ts'
import {
  type ChainSettings,
  type ConfigFlags,
  LOG_LEVELS,
  type LogLevel,
  UNLISTED_VAULTS,
} from './types.ts'

export type GlobalSettings = {
  database: string
  databaseRead: string
  dataDir: string
  host: string
  port: number
  logLevel: LogLevel
  tlsCert: string
  tlsKey: string
  trustProxy: boolean
  responseProfile: ResponseProfile
  readyMaxLagBlocks: number
  headerAliases: string[]
  redis: string
  ipfsGateway: string
  allowPrivateFetch: boolean
  webhooksAllowHttp: boolean
  webhooksAllowPrivate: boolean
  webhooksConcurrency: number
  standbyTakeoverSeconds: number
}

type Field<K extends string, T> = {
  key: K
  /** Path in the config file, dot-separated. */
  path: string
  env: string
  flag: `--${string}`
  rule: Rule<T>
}

type GlobalField = {
  [K in keyof GlobalSettings]: Field<K, GlobalSettings[K]>
}[keyof GlobalSettings]

/** Instance-wide options: where each one is read from. */
export const GLOBAL_FIELDS: readonly GlobalField[] = [
  {
    key: 'database',
    path: 'database',
    env: 'SCRY_DATABASE',
    flag: '--database',
    rule: databaseRule,
  },
  {
    key: 'databaseRead',
    path: 'databaseRead',
    env: 'SCRY_DATABASE_READ',
    flag: '--database-read',
    rule: urlRule(['postgres:', 'postgresql:']),
  },
  {
    key: 'dataDir',
    path: 'dataDir',
    env: 'SCRY_DATA_DIR',
    flag: '--data-dir',
    rule: textRule('a directory path'),
  },
  {
    key: 'host',
    path: 'server.host',
    env: 'SCRY_HOST',
    flag: '--host',
    rule: textRule('a host name or IP address'),
  },
  {
    key: 'port',
    path: 'server.port',
    env: 'SCRY_PORT',
    flag: '--port',
    // 0 asks the OS for a free port (tests).
    rule: integerRule({ min: 0, max: 65535 }),
  },
  {
    key: 'logLevel',
    path: 'log.level',
    env: 'SCRY_LOG_LEVEL',
    flag: '--log-level',
    rule: oneOfRule(LOG_LEVELS),
  },
  {
    key: 'tlsCert',
    path: 'server.tlsCert',
    env: 'SCRY_TLS_CERT',
    flag: '--tls-cert',
    rule: textRule('a PEM certificate file path'),
  },
  {
    key: 'tlsKey',
    path: 'server.tlsKey',
    env: 'SCRY_TLS_KEY',
    flag: '--tls-key',
    rule: textRule('a PEM private key file path'),
  },
  {
    key: 'trustProxy',
    path: 'server.trustProxy',
    env: 'SCRY_TRUST_PROXY',
    flag: '--trust-proxy',
    rule: booleanRule,
  },
  {
    key: 'responseProfile',
    path: 'server.responseProfile',
    env: 'SCRY_RESPONSE_PROFILE',
    flag: '--response-profile',
    rule: oneOfRule(RESPONSE_PROFILES),
  },
  {
    key: 'readyMaxLagBlocks',
    path: 'server.readyMaxLagBlocks',
    env: 'SCRY_READY_MAX_LAG_BLOCKS',
    flag: '--ready-max-lag-blocks',
    rule: integerRule({ min: 0 }),
  },
  {
    key: 'headerAliases',
    path: 'auth.headerAliases',
    env: 'SCRY_AUTH_HEADER_ALIASES',
    flag: '--auth-header-alias',
    rule: headerListRule,
  },
  {
    key: 'redis',
    path: 'redis',
    env: 'SCRY_REDIS',
    flag: '--redis',
    rule: urlRule(['redis:', 'rediss:']),
  },
  {
    key: 'ipfsGateway',
    path: 'nft.ipfsGateway',
    env: 'SCRY_IPFS_GATEWAY',
    flag: '--ipfs-gateway',
    rule: urlRule(['http:', 'https:']),
  },
  {
    key: 'allowPrivateFetch',
    path: 'nft.allowPrivateFetch',
    env: 'SCRY_NFT_ALLOW_PRIVATE_FETCH',
    flag: '--nft-allow-private-fetch',
    rule: booleanRule,
  },
  {
    key: 'webhooksAllowHttp',
    path: 'webhooks.allowHttp',
    env: 'SCRY_WEBHOOKS_ALLOW_HTTP',
    flag: '--webhooks-allow-http',
    rule: booleanRule,
  },
  {
    key: 'webhooksAllowPrivate',
    path: 'webhooks.allowPrivateAddresses',
    env: 'SCRY_WEBHOOKS_ALLOW_PRIVATE_ADDRESSES',
    flag: '--webhooks-allow-private-addresses',
    rule: booleanRule,
  },
  {
    key: 'webhooksConcurrency',
    path: 'webhooks.concurrency',
    env: 'SCRY_WEBHOOKS_CONCURRENCY',
    flag: '--webhooks-concurrency',
    rule: integerRule({ min: 1, max: 64 }),
  },
  {
    key: 'standbyTakeoverSeconds',
    path: 'indexer.standbyTakeoverSeconds',
    env: 'SCRY_STANDBY_TAKEOVER_SECONDS',
    flag: '--standby-takeover-seconds',
    // Above the heartbeat (a second) by a margin; a write transaction may idle half of it, and
    // PostgreSQL takes that idle time in milliseconds up to 2^31 - 1 (~24.8 days): at most 30
    // days.
    rule: integerRule({ min: 10, max: 2_592_000 }),
  },
]

/**
 * The key under which the command line (commander) stores a flag's value: the flag's name
 * in camelCase (`--dex-factory` → `dexFactory`). Derived, never written by hand, so that a
 * flag cannot be read under another name than the one it is stored under.
 */
export function flagKey(flag: `--${string}`): keyof ConfigFlags {
  return flag.slice(2).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) as keyof ConfigFlags
}

export const GLOBAL_DEFAULTS: Omit<
  GlobalSettings,
  'database' | 'databaseRead' | 'tlsCert' | 'tlsKey' | 'redis' | 'readyMaxLagBlocks'
> = {
  dataDir: '.scry',
  host: '127.0.0.1',
  port: 8080,
  logLevel: 'info',
  trustProxy: false,
  responseProfile: 'default',
  headerAliases: [],
  ipfsGateway: 'https://ipfs.io/ipfs/',
  allowPrivateFetch: false,
  webhooksAllowHttp: false,
  webhooksAllowPrivate: false,
  webhooksConcurrency: 4,
  standbyTakeoverSeconds: 120,
}

type ChainField = {
  [K in keyof ChainSettings]: Omit<Field<K, ChainSettings[K]>, 'path'> & {
    /** Help text for the CLI flag, and the name of its value (`--batch-size <chainId=n>`). */
    description: string
    valueName: string
  }
}[keyof ChainSettings]

/**
 * Per-chain options: file key `chains.<id>.<key>`, env `<env>_<id>`, flag
 * `<flag> <id>=<value>` (repeatable).
 */
export const CHAIN_FIELDS: readonly ChainField[] = [
  {
    key: 'rpc',
    env: 'SCRY_RPC',
    flag: '--rpc',
    rule: rpcRule,
    description: 'RPC URL(s) of a chain; repeat or comma-separate for several',
    valueName: 'url',
  },
  {
    key: 'startBlock',
    env: 'SCRY_START_BLOCK',
    flag: '--start-block',
    rule: integerRule({ min: 0 }),
    description: 'first block to index (default 0)',
    valueName: 'n',
  },
  {
    key: 'finalityDepth',
    env: 'SCRY_FINALITY_DEPTH',
    flag: '--finality-depth',
    rule: integerRule({ min: 0 }),
    description: 'blocks behind the head that can still reorg (default 64)',
    valueName: 'n',
  },
  {
    key: 'traces',
    env: 'SCRY_TRACES',
    flag: '--traces',
    rule: oneOfRule(['auto', 'debug', 'parity', 'off']),
    description: 'call traces: auto, debug (debug_traceBlockByHash), parity (trace_block), off',
    valueName: 'auto|debug|parity|off',
  },
  {
    key: 'batchSize',
    env: 'SCRY_BATCH_SIZE',
    flag: '--batch-size',
    rule: integerRule({ min: 1 }),
    description: 'blocks per committed batch, at most (default 100)',
    valueName: 'n',
  },
  {
    key: 'batchTransactions',
    env: 'SCRY_BATCH_TRANSACTIONS',
    flag: '--batch-transactions',
    rule: integerRule({ min: 1 }),
    description:
      'transactions per committed batch, about: fewer blocks on dense chains (default 1000)',
    valueName: 'n',
  },
  {
    key: 'fetchConcurrency',
    env: 'SCRY_FETCH_CONCURRENCY',
    flag: '--fetch-concurrency',
    rule: integerRule({ min: 1 }),
    description: 'windows of blocks fetched ahead in parallel while backfilling (default 4)',
    valueName: 'n',
  },
  {
    key: 'rpcBatchSize',
    env: 'SCRY_RPC_BATCH_SIZE',
    flag: '--rpc-batch-size',
    rule: integerRule({ min: 1 }),
    description: 'JSON-RPC requests per HTTP batch (default 50)',
    valueName: 'n',
  },
  {
    key: 'pollIntervalMs',
    env: 'SCRY_POLL_INTERVAL_MS',
    flag: '--poll-interval-ms',
    rule: integerRule({ min: 1 }),
    description: 'head polling interval in milliseconds (default 1000)',
    valueName: 'n',
  },
  {
    key: 'usdc',
    env: 'SCRY_USDC',
    flag: '--usdc',
    rule: addressListRule,
    description: "USD anchor token(s) priced at 1.00 (default: the chain's canonical USDC)",
    valueName: 'address',
  },
  {
    key: 'wrappedNative',
    env: 'SCRY_WRAPPED_NATIVE',
    flag: '--wrapped-native',
    rule: addressRule,
    description: "token the native asset is priced as (default: WETH or the chain's wrapper)",
    valueName: 'address',
  },
  {
    key: 'dexFactories',
    env: 'SCRY_DEX_FACTORIES',
    flag: '--dex-factory',
    rule: dexFactoryListRule,
    description:
      'factories whose pools set prices, as uniswap_v2:<address> or uniswap_v3:<address>',
    valueName: 'type:address',
  },
  {
    key: 'minPoolLiquidityUsd',
    env: 'SCRY_MIN_POOL_LIQUIDITY_USD',
    flag: '--min-pool-liquidity-usd',
    rule: integerRule({ min: 0 }),
    description: 'pools with less USD liquidity never set a price (default 1000)',
    valueName: 'n',
  },
  {
    key: 'genesis',
    env: 'SCRY_GENESIS',
    flag: '--genesis',
    rule: textRule('a genesis.json file path'),
    description:
      "the chain's genesis.json: accounts funded at genesis (default: asked of the node)",
    valueName: 'path',
  },
  {
    key: 'unlistedVaults',
    env: 'SCRY_UNLISTED_VAULTS',
    flag: '--unlisted-vaults',
    rule: oneOfRule(UNLISTED_VAULTS),
    description:
      'ERC4626 vaults not listed for the chain in DeFi positions: value (default), list (no USD value), off',
    valueName: 'value|list|off',
  },
  {
    key: 'deniedVaults',
    env: 'SCRY_DENIED_VAULTS',
    flag: '--denied-vault',
    rule: addressListRule,
    description: 'ERC4626 vaults never shown in DeFi positions, listed or not (default none)',
    valueName: 'address',
  },
  {
    key: 'stablecoins',
    env: 'SCRY_STABLECOINS',
    flag: '--stablecoin',
    rule: addressListRule,
    description: 'tokens the stablecoins answers list beside the shipped registry (default none)',
    valueName: 'address',
  },
  {
    key: 'defiProtocols',
    env: 'SCRY_DEFI_PROTOCOLS',
    flag: '--defi-protocol',
    rule: defiProtocolListRule,
    description: `DeFi deployments read for positions, replacing the chain's shipped ones: ${DEFI_PROTOCOL_FORMS.join(', ')}`,
    valueName: 'type:address…',
  },
]

/** Defaults of every chain; `usdc`, `wrappedNative` and `dexFactories` come per chain from `dexDeployment`. */
export const CHAIN_DEFAULTS: Omit<
  ChainSettings,
  'rpc' | 'usdc' | 'wrappedNative' | 'dexFactories'
> = {
  startBlock: 0,
  finalityDepth: 64,
  traces: 'auto',
  batchSize: 100,
  batchTransactions: 1000,
  fetchConcurrency: 4,
  rpcBatchSize: 50,
  pollIntervalMs: 1000,
  minPoolLiquidityUsd: 1000,
  genesis: undefined,
  unlistedVaults: 'value',
  deniedVaults: [],
  stablecoins: [],
  defiProtocols: undefined,
}
