import type { ScryConfig } from '../../config/types.ts'
import { createStore } from '../../store/createStore.ts'
import { claimSqliteFile, type SqliteClaim } from '../../store/sqlite/claimSqliteFile.ts'
import { sqliteFilePath } from '../../utils/sqliteFilePath.ts'
import { reportMigrationProgress } from '../reportMigrationProgress.ts'

/** `scry migrate`: apply pending database migrations, then exit. */
export async function runMigrate({ config }: { config: ScryConfig }): Promise<number> {
  const store = createStore({ url: config.database })
  let claim: SqliteClaim | undefined
  try {
    // SQLite: not while a `scry start` or `scry dev` runs on the file.
    if (store.dialect === 'sqlite')
      claim = claimSqliteFile(sqliteFilePath(config.database), '`scry migrate`')
    await store.ping()
    const { applied } = await store.migrate({
      onStart: (name) => process.stderr.write(`Applying ${name}…\n`),
      onProgress: reportMigrationProgress((line) => process.stderr.write(`${line}\n`)),
    })
    process.stdout.write(
      applied.length === 0
        ? 'Database is up to date.\n'
        : `Applied ${applied.length} migration(s): ${applied.join(', ')}\n`,
    )
    return 0
  } finally {
    await store.close()
    claim?.release()
  }
}
