import { resolve } from 'node:path'
import { CHAIN_CATALOGUE } from '../chains/catalogue.ts'
import { resolveCatalogue } from '../chains/resolveCatalogue.ts'
import { toDefiDeployment } from '../defi/defiProtocolEntry.ts'
import { dexDeployment } from '../prices/dexDeployments.ts'
import { sqliteFilePath } from '../utils/sqliteFilePath.ts'
import { CHAIN_DEFAULTS, GLOBAL_DEFAULTS, type GlobalSettings } from './fields.ts'
import { InvalidConfigError } from './InvalidConfigError.ts'
import type { Layer } from './layer.ts'
import { loadConfigFile } from './loadConfigFile.ts'
import { readEnvLayer } from './readEnvLayer.ts'
import { readFileLayer } from './readFileLayer.ts'
import { readFlagLayer } from './readFlagLayer.ts'
import { readSvmConfig } from './readSvmConfig.ts'
import type { ChainConfig, ChainSettings, ConfigFlags, ScryConfig } from './types.ts'

export type ResolveConfigOptions = {
  flags?: ConfigFlags
  env?: Record<string, string | undefined>
  /** Relative paths (config file, data dir, SQLite file) are resolved against it. */
  cwd?: string
}

/**
 * Builds the configuration from defaults < config file < environment < CLI flags, and checks
 * it. Throws `InvalidConfigError` (a `ConfigError`) listing every problem found.
 */
export async function resolveConfig({
  flags = {},
  env = process.env,
  cwd = process.cwd(),
}: ResolveConfigOptions = {}): Promise<ScryConfig> {
  const issues: string[] = []

  const explicit = flags.config ?? nonEmpty(env.SCRY_CONFIG)
  const file = await loadConfigFile({
    explicit,
    source: flags.config !== undefined ? '--config' : 'SCRY_CONFIG',
    cwd,
  })
  let fileLayer: Layer | undefined
  let overrides: Parameters<typeof resolveCatalogue>[0] | undefined = []
  if (file.type === 'failed') issues.push(file.issue)
  if (file.type === 'loaded') {
    const read = readFileLayer({ content: file.content, issues })
    fileLayer = read.layer
    overrides = read.catalogue
  }
  // SVM chains take `--rpc solana=…` out of the flags the EVM reader sees.
  const svm = readSvmConfig({
    flags,
    env,
    file: file.type === 'loaded' ? file.content : undefined,
    issues,
  })
  const layers = [
    ...(fileLayer ? [fileLayer] : []),
    readEnvLayer({ env, issues }),
    readFlagLayer({ flags: svm.evmFlags, issues }),
  ]

  // With a broken catalogue, chains it would have added are not reported as unknown as well.
  const catalogue = overrides ? resolveCatalogue(overrides) : [...CHAIN_CATALOGUE]
  const byId = new Map(catalogue.map((chain) => [chain.chainId, chain]))

  const chainIds = [...new Set(layers.flatMap((layer) => [...layer.chains.keys()]))].sort(
    (a, b) => a - b,
  )
  const chains: ChainConfig[] = []
  for (const chainId of chainIds) {
    const entries = layers.flatMap((layer) => layer.chains.get(chainId) ?? [])
    const known = byId.get(chainId)
    if (!known) {
      if (overrides)
        issues.push(
          `${entries[0]?.origin}: chain ${chainId} is not in the catalogue; add it to "catalogue" in the config file, e.g. { "chainId": ${chainId}, "name": "my_chain", "tags": ["default"] } (the default tag: answered when a request names no chain_ids)`,
        )
      continue
    }
    const settings: ChainSettings = Object.assign(
      { ...CHAIN_DEFAULTS, ...dexDeployment(chainId), rpc: [] },
      ...entries.map((entry) => entry.settings),
    )
    if (settings.rpc.length === 0) {
      // Named by a flag but given no node: a mistyped chain id, or a forgotten --rpc. (A
      // config file or a shared environment may keep settings of chains a process does not run.)
      const named = layers.at(-1)?.chains.get(chainId)
      if (named) {
        issues.push(
          `${named.origin}: chain ${chainId} has no rpc; give it one (--rpc ${chainId}=<url>) or drop the flag`,
        )
      }
      continue
    }
    const { defiProtocols, ...rest } = settings
    chains.push({
      chainId,
      name: known.name,
      ...rest,
      ...(defiProtocols === undefined ? {} : { defi: toDefiDeployment(defiProtocols) }),
      genesis: settings.genesis === undefined ? undefined : resolve(cwd, settings.genesis),
      expectedChainId: chainId,
    })
  }

  const global: Partial<GlobalSettings> = Object.assign({}, ...layers.map((layer) => layer.global))
  if ((global.tlsCert === undefined) !== (global.tlsKey === undefined)) {
    issues.push('server.tlsCert / server.tlsKey: give both the certificate and the key, or neither')
  }
  if (global.databaseRead !== undefined && !/^postgres(ql)?:\/\//i.test(global.database ?? '')) {
    issues.push('databaseRead: a read replica needs a PostgreSQL database (database: postgres://…)')
  }
  if (issues.length > 0) throw new InvalidConfigError({ issues, configFile: pathOf(file) })

  const dataDir = resolve(cwd, global.dataDir ?? GLOBAL_DEFAULTS.dataDir)
  return {
    database: resolveDatabase({ database: global.database, dataDir, cwd }),
    databaseRead: global.databaseRead,
    dataDir,
    server: {
      host: global.host ?? GLOBAL_DEFAULTS.host,
      port: global.port ?? GLOBAL_DEFAULTS.port,
      tls:
        global.tlsCert !== undefined && global.tlsKey !== undefined
          ? { cert: resolve(cwd, global.tlsCert), key: resolve(cwd, global.tlsKey) }
          : undefined,
      trustProxy: global.trustProxy ?? GLOBAL_DEFAULTS.trustProxy,
      responseProfile: global.responseProfile ?? GLOBAL_DEFAULTS.responseProfile,
      readyMaxLagBlocks: global.readyMaxLagBlocks,
    },
    auth: { headerAliases: global.headerAliases ?? GLOBAL_DEFAULTS.headerAliases },
    redis: global.redis,
    nft: {
      ipfsGateway: global.ipfsGateway ?? GLOBAL_DEFAULTS.ipfsGateway,
      allowPrivateFetch: global.allowPrivateFetch ?? GLOBAL_DEFAULTS.allowPrivateFetch,
    },
    webhooks: {
      allowHttp: global.webhooksAllowHttp ?? GLOBAL_DEFAULTS.webhooksAllowHttp,
      allowPrivateAddresses: global.webhooksAllowPrivate ?? GLOBAL_DEFAULTS.webhooksAllowPrivate,
      concurrency: global.webhooksConcurrency ?? GLOBAL_DEFAULTS.webhooksConcurrency,
    },
    indexer: {
      standbyTakeoverSeconds:
        global.standbyTakeoverSeconds ?? GLOBAL_DEFAULTS.standbyTakeoverSeconds,
    },
    cursorSecret: nonEmpty(env.SCRY_CURSOR_SECRET),
    log: { level: global.logLevel ?? GLOBAL_DEFAULTS.logLevel },
    catalogue,
    chains,
    configFile: pathOf(file),
    svm: svm.chains,
  }
}

function resolveDatabase({
  database,
  dataDir,
  cwd,
}: {
  database: string | undefined
  dataDir: string
  cwd: string
}): string {
  if (database === undefined) return resolve(dataDir, 'scry.sqlite')
  if (database === ':memory:' || /^postgres(ql)?:\/\//i.test(database)) return database
  return resolve(cwd, sqliteFilePath(database))
}

function pathOf(file: Awaited<ReturnType<typeof loadConfigFile>>): string | undefined {
  return file.type === 'none' ? undefined : file.path
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value
}
