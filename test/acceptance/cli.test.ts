import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import { createTestDatabase } from '../support/createTestStore.ts'
import { until } from '../support/until.ts'

// Acceptance: bad config, an unreachable RPC or a node on the wrong chain gives a clear
// message and a non-zero exit, never a stack trace. Runs the real `scry` binary.
const SCRY = fileURLToPath(new URL('../../bin/scry.js', import.meta.url))
let anvil: Anvil
let dir: string

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 8453 })
  dir = mkdtempSync(join(tmpdir(), 'scry-cli-'))
})
afterAll(async () => {
  await anvil?.stop()
  rmSync(dir, { recursive: true, force: true })
})

function scry(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SCRY, ...args], { cwd: dir })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => {
      stdout += d
    })
    child.stderr.on('data', (d) => {
      stderr += d
    })
    child.on('exit', (code) => resolve({ code, stdout, stderr }))
  })
}

const noStack = (text: string) => expect(text).not.toMatch(/^\s+at /m)

describe('scry CLI', () => {
  test('error: bad config names the key and what is expected', async () => {
    const r = await scry(['start', '--rpc', '1=http://127.0.0.1:1', '--finality-depth', '1=abc'])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatchInlineSnapshot(`
      "error: Invalid configuration:
        - --finality-depth (chain 1): expected an integer ≥ 0, got "abc"
      "
    `)
  })

  test('error: no chain configured', async () => {
    const r = await scry(['start', '--database', join(dir, 'a.sqlite')])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^error: No chain to index\.\nGive at least one RPC source/)
    noStack(r.stderr)
  })

  test('error: a node on the wrong chain id', async () => {
    const startWith = (...rpcs: string[]) =>
      scry([
        'start',
        '--port',
        '0',
        ...rpcs.flatMap((rpc) => ['--rpc', rpc]),
        '--database',
        join(dir, 'b.sqlite'),
        '--log-level',
        'silent',
      ])
    const r = await startWith(`1=${anvil.rpcUrl}`)
    expect(r.code).toBe(1)
    expect(r.stderr).toBe(
      `error: Chain 1: the node at ${anvil.rpcUrl} is chain 8453.\nPoint every --rpc 1=… at a node of chain 1.\n`,
    )
    // A backup of another chain is refused too, before it could be failed over to.
    const other = await startAnvil({ chainId: 1 })
    try {
      const backup = await startWith(`8453=${anvil.rpcUrl}`, `8453=${other.rpcUrl}`)
      expect(backup.code).toBe(1)
      expect(backup.stderr).toBe(
        `error: Chain 8453: the node at ${other.rpcUrl} is chain 1.\nPoint every --rpc 8453=… at a node of chain 8453.\n`,
      )
    } finally {
      await other.stop()
    }
  })

  test('behavior: on PostgreSQL without autovacuum, start warns (and only then)', async () => {
    const database = await createTestDatabase('postgres')
    try {
      const client = new pg.Client({ connectionString: database.url })
      await client.connect()
      const setting = await client
        .query<{ autovacuum: string }>('show autovacuum')
        .then((q) => q.rows[0]?.autovacuum)
        .finally(() => client.end())
      // The wrong chain ends the run right after the store's checks.
      const r = await scry([
        'start',
        '--port',
        '0',
        '--rpc',
        `1=${anvil.rpcUrl}`,
        '--database',
        database.url,
        '--log-level',
        'warn',
      ])
      expect(r.code).toBe(1)
      const warned = r.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { level: number; setting?: string; msg: string })
        .filter((entry) => entry.setting === 'autovacuum')
      expect(warned.length).toBe(setting === 'off' ? 1 : 0)
      if (warned[0]) {
        expect(warned[0].level).toBe(40)
        expect(warned[0].msg).toMatch(/autovacuum is off.*docs\/deploy\.md/)
      }
    } finally {
      await database.drop()
    }
  }, 60_000)

  test('error: an unreachable RPC', async () => {
    const r = await scry([
      'start',
      '--port',
      '0',
      '--rpc',
      '8453=http://127.0.0.1:9',
      '--database',
      join(dir, 'c.sqlite'),
      '--log-level',
      'silent',
    ])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(
      /^error: RPC eth_chainId failed on 127\.0\.0\.1:9 after \d+ attempts\n/,
    )
    noStack(r.stderr)
  }, 60_000)

  test('error: split roles on SQLite', async () => {
    const r = await scry([
      'start',
      '--role',
      'webhooks',
      '--rpc',
      `8453=${anvil.rpcUrl}`,
      '--database',
      join(dir, 'e.sqlite'),
    ])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^error: Splitting roles needs PostgreSQL\.\nWith SQLite run one/)
    noStack(r.stderr)
  })

  test('behavior: a flag no role of the process reads (--port on an indexer) is said to have no effect', async () => {
    const common = ['--rpc', `8453=${anvil.rpcUrl}`, '--database', join(dir, 'f.sqlite')]
    const r = await scry(['start', '--role', 'indexer', '--port', '9100', ...common])
    expect(r.stderr).toMatch(
      /^warning: --port is read by the api role, which this process does not run \(--role indexer\); it has no effect here\. Only API processes listen on a port\.\n/,
    )
    noStack(r.stderr)
    // A flag one of its roles reads is not mentioned (the next check, SQLite, speaks first).
    const ok = await scry([
      'start',
      '--role',
      'indexer',
      '--ipfs-gateway',
      'https://g.example/',
      ...common,
    ])
    expect(ok.stderr).toMatch(/^error: Splitting roles needs PostgreSQL\./)
  })

  test('error: a second process on a SQLite database another one runs is refused', async () => {
    // The first runs on the file `scry dev --data-dir dev` uses, so dev can be tried too.
    const database = join(dir, 'dev', 'dev.sqlite')
    const args = ['--rpc', `8453=${anvil.rpcUrl}`, '--database', database, '--port', '0']
    const first = spawn(process.execPath, [SCRY, 'start', ...args], { cwd: dir })
    try {
      // Its first log line after the claim: the API listens.
      await new Promise<void>((resolve, reject) => {
        let out = ''
        first.stdout.on('data', (d) => {
          out += d
          if (out.includes('API listening')) resolve()
        })
        first.once('exit', () => reject(new Error(`the first start exited: ${out}`)))
      })
      const refused = (what: string) =>
        `error: Another Scry process is using the database ${database}; ${what} was refused.\nWith SQLite one process runs Scry`
      for (const [command, flags] of [
        ['start', args],
        ['migrate', ['--database', database]],
      ] as const) {
        const r = await scry([command, ...flags])
        expect(r.code).toBe(1)
        expect(r.stderr.startsWith(refused(`\`scry ${command}\``))).toBe(true)
        noStack(r.stderr)
      }
      // `scry dev` where one runs is refused before it deletes anything.
      const r = await scry(['dev', '--data-dir', join(dir, 'dev'), '--port', '0'])
      expect(r.code).toBe(1)
      expect(r.stderr.startsWith(refused('`scry dev` with this data dir'))).toBe(true)
      expect(existsSync(database)).toBe(true)
    } finally {
      const gone = new Promise((resolve) => first.once('exit', resolve))
      first.kill('SIGTERM')
      await gone
    }
    // Once it has stopped, the database is free again.
    expect((await scry(['migrate', '--database', database])).code).toBe(0)
  }, 60_000)

  test('behavior: reset-chain deletes a chain so that the next start indexes it again; refused while it runs, and without --yes', async () => {
    const database = join(dir, 'g.sqlite')
    const args = ['--rpc', `8453=${anvil.rpcUrl}`, '--database', database, '--port', '0']
    await fetch(anvil.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_mine', params: ['0x5'] }),
    })
    const indexed = async () => {
      const r = await scry(['status', '--database', database, '--rpc', `8453=${anvil.rpcUrl}`])
      // The indexed block, or 'not' (started) before the first batch.
      return r.stdout.match(/base \(8453\) +(\S+)/)?.[1]
    }
    const first = spawn(process.execPath, [SCRY, 'start', ...args], { cwd: dir })
    const stopFirst = async () => {
      const gone = new Promise((resolve) => first.once('exit', resolve))
      first.kill('SIGTERM')
      await gone
    }
    try {
      await until({
        what: 'the first start to index',
        read: async () => /^\d+$/.test((await indexed()) ?? ''),
        everyMs: 500,
      })
      // While it runs: refused, nothing deleted.
      const busy = await scry(['reset-chain', '8453', '--yes', '--database', database])
      expect(busy.code).toBe(1)
      expect(busy.stderr).toMatch(/^error: Another Scry process is using the database /)
    } finally {
      await stopFirst()
    }
    const head = await indexed()
    expect(head).toMatch(/^\d+$/)
    const dry = await scry(['reset-chain', '8453', '--database', database])
    expect(dry.code).toBe(1)
    expect(dry.stdout).toMatch(new RegExp(`^Chain 8453 is indexed to block ${head}\\. Deleting`))
    expect(dry.stderr).toBe('error: Nothing was deleted: add --yes to reset the chain.\n')
    expect(await indexed()).toBe(head)
    const reset = await scry(['reset-chain', '8453', '--yes', '--database', database])
    expect(reset.code).toBe(0)
    expect(reset.stdout).toMatch(/ {2}blocks: \d+ rows deleted\n/)
    expect(reset.stdout).toMatch(
      /Chain 8453 is reset; `scry start` indexes it again from its start block\.\n$/,
    )
    expect(await indexed()).toBe('not')
    // Started again: the chain is indexed anew, to the node's head.
    const again = spawn(process.execPath, [SCRY, 'start', ...args], { cwd: dir })
    try {
      await until({
        what: 'the chain indexed again',
        read: async () => Number(await indexed()) >= Number(head),
        everyMs: 500,
      })
    } finally {
      const gone = new Promise((resolve) => again.once('exit', resolve))
      again.kill('SIGTERM')
      await gone
    }
    // Without an RPC URL, status still lists what the database holds, and says what is missing.
    const bare = await scry(['status', '--database', database])
    expect(bare.code).toBe(1)
    expect(bare.stdout).toMatch(/\nbase \(8453\) +\d+ +0x[0-9a-f]{64} +no RPC URL +- +-\n$/)
    expect(bare.stderr).toBe(
      'error: no RPC URL for base (8453), which this database has indexed; give it (--rpc 8453=<url>, SCRY_RPC_8453, chains.8453.rpc) to see its lag.\n',
    )
    const bad = await scry(['reset-chain', 'base', '--database', database])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(
      /^error: command-argument value 'base' is invalid for argument 'chainId'\. expected a numeric chain id/,
    )
  }, 180_000)

  test('error: an unreachable database', async () => {
    const r = await scry(['migrate', '--database', 'postgres://postgres@127.0.0.1:9/scry'])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^error: The database is unavailable \(connect\)\.\nECONNREFUSED/)
    noStack(r.stderr)
  })

  test('error: a database the server refuses (no such role, no such database)', async () => {
    for (const [url, said] of [
      ['postgres://scry_no_such_role@127.0.0.1:5432/postgres', 'role "scry_no_such_role"'],
      [
        'postgres://postgres@127.0.0.1:5432/scry_no_such_database',
        'database "scry_no_such_database"',
      ],
    ] as const) {
      for (const command of ['migrate', 'status']) {
        const r = await scry([command, '--database', url])
        expect(r.code).toBe(1)
        expect(r.stderr).toBe(
          `error: The database refused the connection: ${said} does not exist.\nCheck the user, password and database name in the database URL (--database, SCRY_DATABASE, database in the config file); create the database first if it is new (createdb <name>).\n`,
        )
      }
    }
  }, 60_000)

  test('error: status and keys on a PostgreSQL database without Scry tables change nothing', async () => {
    const empty = await createTestDatabase('postgres')
    try {
      const where = empty.url.replace(/^postgres:\/\/[^@]*@/, 'postgres://')
      for (const args of [['status'], ['keys', 'list']]) {
        const r = await scry([...args, '--database', empty.url])
        expect(r.code).toBe(1)
        expect(r.stderr).toBe(
          `error: There is no Scry database at ${where}.\nIt has no Scry tables: \`scry start\` or \`scry migrate\` makes them. Check --database (or SCRY_DATABASE, database in the config file).\n`,
        )
      }
      const client = new pg.Client({ connectionString: empty.url })
      await client.connect()
      const tables = await client.query("select 1 from pg_tables where schemaname = 'public'")
      await client.end()
      expect(tables.rowCount).toBe(0)
      // The same database as a read replica: refused at start (every read would be a 500).
      const primary = await createTestDatabase('postgres')
      try {
        const api = await scry([
          'start',
          '--role',
          'api',
          '--port',
          '0',
          '--rpc',
          `8453=${anvil.rpcUrl}`,
          '--database',
          primary.url,
          '--database-read',
          empty.url,
          '--log-level',
          'silent',
        ])
        expect(api.code).toBe(1)
        expect(api.stderr).toMatch(
          /^error: Read replica \(databaseRead\): There is no Scry database at postgres:\/\/[^\n]*\.\nIt has no Scry tables/,
        )
      } finally {
        await primary.drop()
      }
    } finally {
      await empty.drop()
    }
  })

  test('default: migrate, then status prints indexed block, node head and lag', async () => {
    const database = join(dir, 'd.sqlite')
    const migration = await scry(['migrate', '--database', database])
    // Progress on stderr, one line per migration as it starts; the summary on stdout.
    expect(migration.stderr.split('\n')).toContain('Applying 0015_compact_u256…')
    const migrated = migration.stdout
    expect(migrated).toBe(
      'Applied 26 migration(s): 0001_initial, 0002_api, 0003_metadata, 0004_prices, 0005_webhooks, 0006_svm, 0007_key_profile, 0008_token_search, 0009_approvals, 0010_indexer_leases, 0011_defi_tokens, 0012_compact_history, 0013_keyed_history_undo, 0014_history_bytes, 0015_compact_u256, 0016_defi_token_pool, 0017_history_addresses, 0018_relative_prices, 0019_address_transactions_beyond_activity, 0020_postgres_balances_without_wallet_copy, 0021_transactions_without_block_fields, 0022_logs_in_transactions, 0023_packed_calldata_and_logs, 0024_postgres_history_alignment, 0025_holder_counts_per_statement, 0026_indexer_lease_stops\n',
    )
    const r = await scry(['status', '--database', database, '--rpc', `8453=${anvil.rpcUrl}`])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(
      /^chain +indexed block +indexed hash +node head +lag +indexer\nbase \(8453\) +not started +- +\d+ +- +-\n$/,
    )
    // A node that does not answer: its row says so, and the exit code too.
    const down = await scry(['status', '--database', database, '--rpc', '8453=http://127.0.0.1:9'])
    expect(down.code).toBe(1)
    expect(down.stdout).toMatch(/\nbase \(8453\) +not started +- +unreachable \(/)
    expect(down.stderr).toMatch(
      /^error: no answer from the node of base \(8453\); check its RPC URL/,
    )
    // Another chain's node: no head, said so, and the exit code too.
    const wrong = await scry(['status', '--database', database, '--rpc', `1=${anvil.rpcUrl}`])
    expect(wrong.code).toBe(1)
    expect(wrong.stdout).toMatch(/\nethereum \(1\) +not started +- +chain 8453's node +- +-\n$/)
    expect(wrong.stderr).toMatch(
      /^error: the node of ethereum \(1\) is chain 8453; give this chain's node/,
    )
    // The same for scripts: one JSON object, the node's head against eth_blockNumber.
    const json = await scry([
      'status',
      '--json',
      '--database',
      database,
      '--rpc',
      `8453=${anvil.rpcUrl}`,
    ])
    expect(json.code).toBe(0)
    const answer = await fetch(anvil.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
    })
    const head = Number(BigInt(((await answer.json()) as { result: string }).result))
    const [chain] = JSON.parse(json.stdout).chains
    expect(chain).toEqual({
      chain_id: 8453,
      name: 'base',
      indexed_block: null,
      indexed_hash: null,
      node_head: expect.any(Number),
      lag_blocks: null,
      indexer: null,
      stopped: null,
    })
    expect(Math.abs(chain.node_head - head)).toBeLessThanOrEqual(1)
    const downJson = await scry([
      'status',
      '--json',
      '--database',
      database,
      '--rpc',
      '8453=http://127.0.0.1:9',
    ])
    expect(downJson.code).toBe(1)
    expect(JSON.parse(downJson.stdout).chains[0]).toMatchObject({
      node_head: null,
      node_error: expect.stringMatching(/./),
    })
  })
})
