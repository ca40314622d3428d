import pg from 'pg'
import type { ScryConfig } from '../../config/types.ts'
import { ConfigError } from '../../internal/errors.ts'
import { createStore } from '../../store/createStore.ts'
import { CHAIN_DATA_TABLES, deleteChainData } from '../../store/deleteChainData.ts'
import { leaseKey } from '../../store/leaseKey.ts'
import { databaseDialect } from '../../store/openDatabase.ts'
import { claimSqliteFile } from '../../store/sqlite/claimSqliteFile.ts'
import { sqliteFilePath } from '../../utils/sqliteFilePath.ts'

/**
 * `scry reset-chain <chainId> --yes`: deletes a chain's indexed data (`deleteChainData`) so
 * that the next `scry start` indexes it again from its start block: the way back after a reorg
 * deeper than `finalityDepth` stopped the chain. Refused while a process indexes the chain
 * (SQLite: any process on the file; PostgreSQL: the chain's lock is held); without `--yes` it
 * only says what it would delete.
 */
export async function runResetChain({
  config,
  chainId,
  yes,
  write,
}: {
  config: ScryConfig
  chainId: number
  yes: boolean
  write: (text: string) => void
}): Promise<number> {
  const store = createStore({ url: config.database, mustExist: true })
  let release = async () => {}
  try {
    // A database with migrations pending is refused here (`mustExist`): they are migrate's.
    await store.ping()
    if (yes) release = await holdChain(config.database, chainId)
    const checkpoint = await store.getCheckpoint(chainId)
    if (!yes) {
      write(
        checkpoint
          ? `Chain ${chainId} is indexed to block ${checkpoint.blockNumber}. Deleting its data (${CHAIN_DATA_TABLES.join(', ')}) makes the next start index it again from its start block; accounts, keys, subscriptions and other chains stay.\n`
          : `Chain ${chainId} has no checkpoint; its leftover rows, if any, would be deleted.\n`,
      )
      throw new ConfigError('Nothing was deleted: add --yes to reset the chain.')
    }
    let deleted = 0
    const counts = await deleteChainData({
      store,
      chainId,
      onTable: (table, rows) => {
        deleted += rows
        if (rows > 0) write(`  ${table}: ${rows} rows deleted\n`)
      },
    })
    if (!checkpoint && deleted === 0) {
      // A mistyped chain id must not read as a reset.
      write(`Chain ${chainId} has no indexed data in this database: nothing was deleted.\n`)
      return 0
    }
    const cancelled = counts.get('webhook_deliveries (pending, cancelled)') ?? 0
    write(
      `Chain ${chainId} is reset${cancelled > 0 ? ` (${cancelled} pending webhook deliveries cancelled)` : ''}; \`scry start\` indexes it again from its start block.\n`,
    )
    return 0
  } finally {
    await release()
    await store.close()
  }
}

/** Makes sure no indexer writes the chain while it is reset; resolves to the release. */
async function holdChain(database: string, chainId: number): Promise<() => Promise<void>> {
  if (databaseDialect(database) === 'sqlite') {
    // SQLite: one process runs every chain; none may be running on the file.
    const claim = claimSqliteFile(sqliteFilePath(database), '`scry reset-chain`')
    return async () => claim.release()
  }
  // The lock the chain's indexer holds while it writes (holdChainLease), held here instead.
  const client = new pg.Client({ connectionString: database, application_name: 'scry-reset' })
  client.on('error', () => {})
  await client.connect()
  const key = leaseKey(chainId).toString()
  const { rows } = await client.query<{ ok: boolean }>(
    'select pg_try_advisory_lock($1::bigint) as ok',
    [key],
  )
  if (rows[0]?.ok !== true) {
    await client.end().catch(() => {})
    throw new ConfigError(`An indexer is running chain ${chainId}; it was not reset.`, {
      details:
        'Stop every `scry start` that indexes the chain (its standbys too), reset it, then start them again.',
    })
  }
  return async () => {
    await client.query('select pg_advisory_unlock($1::bigint)', [key]).catch(() => {})
    await client.end().catch(() => {})
  }
}
