import type { ScryConfig } from '../../config/types.ts'
import { ConfigError } from '../../internal/errors.ts'
import { createLogger } from '../../internal/logger.ts'
import { createStore } from '../../store/createStore.ts'
import { databaseDialect } from '../../store/openDatabase.ts'
import { readAutovacuum } from '../../store/readAutovacuum.ts'
import { claimSqliteFile, type SqliteClaim } from '../../store/sqlite/claimSqliteFile.ts'
import { sqliteFilePath } from '../../utils/sqliteFilePath.ts'
import { formatProgress } from '../formatProgress.ts'
import { parseIndexChains } from '../parseIndexChains.ts'
import { ROLES, type Role } from '../parseRoles.ts'
import { reportMigrationProgress } from '../reportMigrationProgress.ts'
import { runNode } from '../runNode.ts'

/** `scry start`: index the configured chains and serve the API until `signal` aborts. */
export async function runStart({
  config,
  signal,
  roles = new Set(ROLES),
  chains,
}: {
  config: ScryConfig
  signal: AbortSignal
  /** `--role`: api, indexer, webhooks; default all three in this process. */
  roles?: ReadonlySet<Role>
  /** `--chains`: ids of the configured chains this process indexes (default all). */
  chains?: string
}): Promise<number> {
  if (
    config.chains.length === 0 &&
    config.svm.length === 0 &&
    (roles.has('indexer') || roles.has('api'))
  ) {
    throw new ConfigError(roles.has('indexer') ? 'No chain to index.' : 'No chain to serve.', {
      details:
        'Give at least one RPC source: --rpc <chainId>=<url>, SCRY_RPC_<chainId>, or chains.<id>.rpc in the config file (SVM: --rpc solana=<url>, SCRY_RPC_SOLANA, svm.solana.rpc). An API process needs the chains too (it reads their nodes for some answers): give every process the same configuration.',
    })
  }
  const isPostgres = databaseDialect(config.database) === 'postgres'
  if (!isPostgres && roles.size < ROLES.length) {
    // SQLite has one writer and no row locks: a second indexer or delivery worker on the same
    // file would write or deliver twice.
    throw new ConfigError('Splitting roles needs PostgreSQL.', {
      details:
        'With SQLite run one `scry start` with every role (the default), or move the database to PostgreSQL to run --role api, indexer and webhooks as separate processes.',
    })
  }
  const indexChains = parseIndexChains({ text: chains, chains: config.chains })
  const logger = createLogger({ level: config.log.level })
  const store = createStore({ url: config.database })
  // Logs are JSON on stdout; a person at a terminal also gets progress lines on stderr.
  const tty = process.stderr.isTTY === true
  let claim: SqliteClaim | undefined
  try {
    if (!isPostgres) claim = claimSqliteFile(sqliteFilePath(config.database), '`scry start`')
    await store.ping()
    const { applied } = await store.migrate({
      onStart: (migration) =>
        logger.info({ migration }, 'Migrating the database (large stores: this can take minutes)'),
      onProgress: reportMigrationProgress((line, fields) => {
        logger.info(fields, 'Migrating the database')
        if (tty) process.stderr.write(`${line}\n`)
      }),
    })
    if (applied.length > 0) logger.info({ migrations: applied }, 'Database migrated')
    if (roles.has('indexer') && (await readAutovacuum(store)) === false) {
      logger.warn(
        { setting: 'autovacuum' },
        "PostgreSQL's autovacuum is off: the old row versions of every balance and undo entry the indexer updates or deletes are not cleaned up, so those tables and their indexes grow with every batch. Set autovacuum = on in postgresql.conf and reload the server (docs/deploy.md), or VACUUM the database regularly.",
      )
    }
    await runNode({
      config,
      chains: config.chains,
      store,
      logger,
      signal,
      roles,
      indexChains,
      onApi: (api) => {
        if (tty) process.stderr.write(`API listening on ${api.url}\n`)
      },
      ...(tty
        ? {
            onProgress: (p) => {
              const name = config.chains.find((c) => c.chainId === p.chainId)?.name
              process.stderr.write(`${formatProgress(p, name)}\n`)
            },
          }
        : {}),
    })
    return 0
  } finally {
    await store.close()
    claim?.release()
    logger.flush()
  }
}
