// A preload for profiling: `node --import ./bench/support/timeSqliteStatements.js …`, or for
// bench:ingest's own `scry start` process, BENCH_SCRY_NODE_ARGS="--import
// ./bench/support/timeSqliteStatements.js". Times every better-sqlite3 statement of the
// process by its SQL and, at exit, prints the 25 costliest to stderr (time, calls, SQL).
// Time spent in a statement is time the main thread waits: SQLite runs on it.
import { createRequire } from 'node:module'

const Database = createRequire(import.meta.url)('better-sqlite3')
/** @type {Map<string, { ms: number, calls: number }>} */
const bySql = new Map()

/** @param {string} sql @param {number} started */
function record(sql, started) {
  const key = sql.replace(/\s+/g, ' ').slice(0, 100)
  const entry = bySql.get(key) ?? { ms: 0, calls: 0 }
  entry.ms += performance.now() - started
  entry.calls++
  bySql.set(key, entry)
}

const prepare = Database.prototype.prepare
Database.prototype.prepare = function (/** @type {string} */ sql) {
  const statement = prepare.call(this, sql)
  for (const method of ['run', 'get', 'all', 'iterate']) {
    const call = statement[method]
    statement[method] = function (/** @type {unknown[]} */ ...args) {
      const started = performance.now()
      try {
        return call.apply(this, args)
      } finally {
        record(sql, started)
      }
    }
  }
  return statement
}

process.on('exit', () => {
  const rows = [...bySql].sort((a, b) => b[1].ms - a[1].ms).slice(0, 25)
  const total = [...bySql.values()].reduce((sum, e) => sum + e.ms, 0)
  const lines = rows.map(
    ([sql, e]) => `${e.ms.toFixed(0).padStart(7)} ms ${String(e.calls).padStart(8)}×  ${sql}`,
  )
  process.stderr.write(
    `SQLite statements, ${total.toFixed(0)} ms in all (pid ${process.pid}):\n${lines.join('\n')}\n`,
  )
})
