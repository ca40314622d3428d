import { randomBytes } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createSecureContext } from 'node:tls'
import { Redis } from 'ioredis'
import type { ChainConfig, ScryConfig } from '../config/types.ts'
import { ConfigError } from '../internal/errors.ts'
import type { Logger } from '../internal/logger.ts'
import { createStore, type Store } from '../store/createStore.ts'
import { createSvmChain } from '../svm/createSvmChain.ts'
import { makeDirectorySync } from '../utils/makeDirectorySync.ts'
import type { NodeHead } from './apiContext.ts'
import { createApiContext } from './createApiContext.ts'
import { createApiServer } from './createApiServer.ts'
import { API_ROUTES } from './routes/apiRoutes.ts'

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost'])

export type RunningApi = { url: string; close(): Promise<void> }

/** Builds the API from the config and listens; `close()` stops it and flushes metering. */
export async function startApiServer({
  config,
  store,
  logger,
  chains = config.chains,
  nodeHeads = () => [],
}: {
  config: ScryConfig
  store: Store
  logger: Logger
  /** Chains served; default the configured ones. */
  chains?: readonly ChainConfig[]
  nodeHeads?: () => NodeHead[]
}): Promise<RunningApi> {
  const tls = config.server.tls
  let https: { key: Buffer; cert: Buffer } | undefined
  if (tls) {
    try {
      https = { cert: readFileSync(tls.cert), key: readFileSync(tls.key) }
    } catch (error) {
      throw new ConfigError('Cannot read the TLS certificate or key.', {
        details: error instanceof Error ? error.message : String(error),
      })
    }
    try {
      createSecureContext(https)
    } catch (error) {
      throw new ConfigError(
        `The TLS certificate and key do not load: ${error instanceof Error ? error.message : String(error)}.`,
        {
          details: `server.tlsCert (${tls.cert}) must be a PEM certificate and server.tlsKey (${tls.key}) its private key; were they swapped?`,
        },
      )
    }
  }
  const redis = config.redis
    ? // Calls fail at once while it is disconnected (no queue): the limiter counts in memory.
      new Redis(config.redis, {
        lazyConnect: false,
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
      })
    : undefined
  // ioredis reports every failed reconnect (every few seconds while Redis is away).
  let redisWarnedAt = Number.NEGATIVE_INFINITY
  redis?.on('error', (error) => {
    if (Date.now() - redisWarnedAt < 60_000) return
    redisWarnedAt = Date.now()
    logger.warn({ err: error }, 'Redis connection problem (said at most once a minute)')
  })
  // The replica must hold Scry's tables at this version (`mustExist`): a mistyped database name
  // would answer every read with a 500 while `/ready` said ready.
  const reads = config.databaseRead
    ? createStore({ url: config.databaseRead, mustExist: true })
    : store
  if (reads !== store) {
    // Reachability is `/ready`'s to report; a replica down at start must not stop the API, but
    // one that answers without Scry's tables is a configuration error.
    await reads.ping().catch(async (error: unknown) => {
      if (!(error instanceof ConfigError)) return
      await reads.close()
      throw new ConfigError(
        `Read replica (databaseRead): ${error.shortMessage}`,
        error.details ? { details: error.details } : {},
      )
    })
    logger.info({ host: new URL(config.databaseRead ?? '').host }, 'API reads from a read replica')
  }
  const closeReads = async () => {
    if (reads !== store) await reads.close()
  }
  const svmLogger = logger.child({ component: 'svm' })
  const svm = new Map(
    (config.svm ?? []).map((chain) => [
      chain.name,
      createSvmChain({ config: chain, store, logger: svmLogger }),
    ]),
  )
  const closeSvm = () => {
    for (const chain of svm.values()) chain.close()
  }
  const ctx = createApiContext({
    store,
    reads,
    catalogue: config.catalogue,
    chains,
    logger: logger.child({ component: 'api' }),
    cursorSecret: config.cursorSecret ?? cursorSecretFile(config.dataDir),
    ...(redis ? { redis } : {}),
    nodeHeads,
    keyHeaders: config.auth.headerAliases,
    responseProfile: config.server.responseProfile,
    readyMaxLagBlocks: config.server.readyMaxLagBlocks,
    https: {
      tls: https !== undefined,
      loopback: LOOPBACK.has(config.server.host),
      trustProxy: config.server.trustProxy,
    },
    webhookUrls: {
      allowHttp: config.webhooks.allowHttp,
      allowPrivate: config.webhooks.allowPrivateAddresses,
    },
    svm,
  })
  if (!https && !ctx.https.loopback && !ctx.https.trustProxy) {
    logger.warn(
      { host: config.server.host },
      'The API listens beyond this machine without TLS: every request, /health too, will be refused (HTTPS_REQUIRED, decisions.md). Serve TLS (--tls-cert, --tls-key) or run behind a proxy that terminates it (--trust-proxy).',
    )
  }
  const app = await createApiServer({ ctx, routes: API_ROUTES, ...(https ? { https } : {}) })
  try {
    await app.listen({ host: config.server.host, port: config.server.port })
  } catch (error) {
    await ctx.close()
    closeSvm()
    await closeReads()
    throw new ConfigError(`Cannot listen on ${config.server.host}:${config.server.port}.`, {
      details: error instanceof Error ? error.message : String(error),
    })
  }
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : config.server.port
  const host = config.server.host.includes(':') ? `[${config.server.host}]` : config.server.host
  const url = `${https ? 'https' : 'http'}://${host}:${port}`
  logger.info({ url }, 'API listening')
  return {
    url,
    async close() {
      await app.close()
      await ctx.close()
      closeSvm()
      await closeReads()
    },
  }
}

/** A random cursor secret kept in the data dir, made on first start. */
function cursorSecretFile(dataDir: string): string {
  const path = join(dataDir, 'cursor-secret')
  try {
    return readFileSync(path, 'utf8').trim()
  } catch {
    makeDirectorySync(dataDir)
    const secret = randomBytes(32).toString('hex')
    writeFileSync(path, `${secret}\n`, { mode: 0o600 })
    return secret
  }
}
