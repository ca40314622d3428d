/**
 * The file a SQLite database setting names: a path as it is, `sqlite:<path>` and
 * `sqlite://<path>` without their prefix. The config resolves and checks it, the store opens it.
 */
export function sqliteFilePath(database: string): string {
  return database.replace(/^sqlite:(\/\/)?/i, '')
}
