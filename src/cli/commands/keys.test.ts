import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestApi } from '../../../test/support/createTestApi.ts'
import { createTestDatabase, DIALECTS } from '../../../test/support/createTestStore.ts'
import { testChainConfig } from '../../../test/support/testChain.ts'
import { systemRoutes } from '../../api/routes/systemRoutes.ts'
import { tokensRoutes } from '../../api/routes/tokensRoutes.ts'
import { createStore } from '../../store/createStore.ts'
import { migrateToLatest, pendingMigrations } from '../../store/migrateToLatest.ts'
import { sqliteFilePath } from '../../utils/sqliteFilePath.ts'
import { main } from '../main.ts'

const BIN = fileURLToPath(new URL('../../../bin/scry.js', import.meta.url))
const run = promisify(execFile)

/** `node bin/scry.js keys …` as a child process, with no SCRY_* settings from outside. */
async function scry(database: string, ...args: string[]) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('SCRY_')),
  )
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [BIN, 'keys', ...args, '--database', database],
      { env, cwd: tmpdir() },
    )
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

/** The same command in process (no child): for the cases where the process adds nothing. */
async function scryHere(database: string, ...args: string[]) {
  let stdout = ''
  let stderr = ''
  const code = await main(['keys', ...args, '--database', database], {
    out: (text) => {
      stdout += text
    },
    err: (text) => {
      stderr += text
    },
  })
  return { code, stdout, stderr }
}

/** A request the API meters (cost 2): token-info of chain 1's native asset. */
async function apiOver(database: string) {
  const store = createStore({ url: database })
  const api = await createTestApi({
    store,
    chains: [testChainConfig({ chainId: 1, rpc: ['http://127.0.0.1:1'] })],
    routes: [systemRoutes, tokensRoutes],
  })
  return {
    get: (key: string) => api.get('/v1/evm/token-info/native?chain_ids=1', { key }),
    /** The first supported chain as the key's profile shapes it. */
    chain: async (key: string) =>
      (await api.get('/v1/evm/supported-chains', { key })).body.chains[0],
    async close() {
      await api.close()
      await store.close()
    },
  }
}

describe('sqlite, end to end', () => {
  let database: string
  let drop: () => Promise<void>
  beforeAll(async () => {
    ;({ url: database, drop } = await createTestDatabase('sqlite'))
    // As `scry start` or `scry migrate` leaves it: `scry keys` makes no database of its own.
    const store = createStore({ url: database })
    await store.migrate()
    await store.close()
  })
  afterAll(async () => {
    await drop?.()
  })

  test('error: a database path with nothing there is refused, and nothing is created', async () => {
    const missing = join(dirname(sqliteFilePath(database)), 'typo', 'scry.sqlite')
    for (const args of [['list'], ['create', '--name', 'x']]) {
      const result = await scryHere(missing, ...args)
      expect(result.code, args.join(' ')).toBe(1)
      expect(result.stderr).toMatch(`error: There is no database at ${missing}.`)
      expect(result.stderr).toMatch('`scry start` or `scry migrate` creates it.')
    }
    expect(existsSync(dirname(missing))).toBe(false)
  })

  test('error: a database with migrations pending is refused, and left as it was', async () => {
    const { url, drop } = await createTestDatabase('sqlite')
    try {
      const older = createStore({ url })
      await migrateToLatest({
        db: older.db,
        caps: older.caps,
        upTo: '0024_postgres_history_alignment',
      })
      await older.close()
      const result = await scryHere(url, 'create', '--name', 'x')
      expect(result).toEqual({
        code: 1,
        stdout: '',
        stderr: `error: The database at ${url} needs 2 migration(s) of this version of Scry: 0025_holder_counts_per_statement, 0026_indexer_lease_stops.\nRun \`scry migrate\` (SQLite: with no \`scry start\` running on it; PostgreSQL: then restart the servers on this version), or use the Scry version the database was migrated with.\n`,
      })
      const after = createStore({ url })
      expect(await pendingMigrations({ db: after.db })).toEqual([
        '0025_holder_counts_per_statement',
        '0026_indexer_lease_stops',
      ])
      expect(await after.db.selectFrom('api_keys').select('id').execute()).toEqual([])
      await after.close()
    } finally {
      await drop()
    }
  })

  // Six `scry keys` processes, each loading the whole CLI (~3.7 s alone on 2 cores, several
  // times that while the rest of the suite runs beside it).
  test('default: create, use, list, set, revoke', async () => {
    const created = await scry(database, 'create', '--name', 'alice', '--json')
    expect(created.code).toBe(0)
    expect(created.stderr).toBe('')
    const alice = JSON.parse(created.stdout)
    expect(alice).toEqual({
      id: expect.stringMatching(/^key_[0-9a-f]{12}$/),
      name: 'alice',
      account_id: expect.stringMatching(/^acct_[0-9a-f]{12}$/),
      account_name: 'alice',
      cu_quota: null,
      rps: null,
      profile: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
      revoked_at: null,
      key: expect.stringMatching(/^scry_[A-Za-z0-9_-]{32}$/),
    })

    // A second key of the same account, and a key of its own account with no quota left.
    const second = await scryHere(
      database,
      'create',
      '--name',
      'alice-ci',
      '--account',
      alice.account_id,
    )
    expect(second.code).toBe(0)
    expect(second.stdout).toMatch(
      new RegExp(
        `^Created key key_[0-9a-f]{12} \\(account ${alice.account_id}\\)\\.\\nAPI key: scry_[A-Za-z0-9_-]{32}\\nStore it now: it is not shown again\\.\\n$`,
      ),
    )
    const secondKey = /API key: (\S+)/.exec(second.stdout)![1]!
    const bob = JSON.parse(
      (
        await scry(
          database,
          'create',
          '--name',
          'bob',
          '--cu-quota',
          '0',
          '--rps',
          '7',
          '--profile',
          'sim',
          '--json',
        )
      ).stdout,
    )
    expect(bob).toMatchObject({ cu_quota: 0, rps: 7, profile: 'sim' })

    let api = await apiOver(database)
    const ok = await api.get(alice.key)
    expect(ok.status).toBe(200)
    expect(ok.headers.get('x-compute-units-cost')).toBe('2')
    expect((await api.get(secondKey)).status).toBe(200)
    const broke = await api.get(bob.key)
    expect(broke.status).toBe(402)
    expect(broke.headers.get('x-ratelimit-limit')).toBe('7')
    expect((await api.get('scry_not-a-key')).status).toBe(401)
    // The key's profile shapes its answers (supported chains cost 0: bob has no quota left).
    expect(await api.chain(bob.key)).toMatchObject({ id: 1, name: 'ethereum' })
    expect(await api.chain(alice.key)).toMatchObject({ chain_id: 1, name: 'ethereum' })
    await api.close() // flushes the usage: alice's account spent 4

    const listed = await scry(database, 'list', '--json')
    expect(listed.code).toBe(0)
    const { keys } = JSON.parse(listed.stdout)
    // Keys made within one second list in id order: compare by name.
    expect(
      keys
        .filter((k: any) => k.name !== 'test')
        .map((k: any) => [k.name, k.account_id, k.cu_used])
        .sort(),
    ).toEqual([
      ['alice', alice.account_id, 4],
      ['alice-ci', alice.account_id, 4],
      ['bob', bob.account_id, 0],
    ])
    expect(JSON.stringify(keys)).not.toContain('scry_') // keys are never listed
    const table = await scryHere(database, 'list')
    expect(table.stdout.split('\n')[0]).toMatch(
      /^id +name +account +quota +used +rps +profile +created +revoked$/,
    )
    expect(table.stdout).toMatch(
      new RegExp(`${bob.id} +bob +${bob.account_id} +0 +0 +7 +sim +\\S+ +-`),
    )
    expect(table.stdout).toMatch(new RegExp(`${alice.id} +alice +.* +server +\\S+ +-`))

    const set = await scry(
      database,
      'set',
      bob.id,
      '--cu-quota',
      '10',
      '--rps',
      'none',
      '--name',
      'robert',
      '--profile',
      'none',
    )
    expect(set).toEqual({
      code: 0,
      stdout: `Updated key ${bob.id}: name robert, quota 10, rps unlimited, profile server.\n`,
      stderr: '',
    })
    const revoked = await scry(database, 'revoke', alice.id)
    expect(revoked.stdout).toBe(`Revoked key ${alice.id}.\n`)
    expect((await scryHere(database, 'revoke', alice.id)).stdout).toBe(
      `Key ${alice.id} was already revoked.\n`,
    )

    api = await apiOver(database)
    expect((await api.get(alice.key)).status).toBe(401)
    expect((await api.get(secondKey)).status).toBe(200)
    const now = await api.get(bob.key)
    expect(now.status).toBe(200)
    expect(now.headers.get('x-ratelimit-limit')).toBeNull()
    expect(await api.chain(bob.key)).toMatchObject({ chain_id: 1 })
    await api.close()
    // A revoked key is not changed (the error case below has the message).
    expect((await scryHere(database, 'set', alice.id, '--profile', 'sim')).code).toBe(1)

    const after = JSON.parse((await scry(database, 'list', '--json')).stdout).keys
    expect(after.find((k: any) => k.id === alice.id).revoked_at).toMatch(/\+00:00$/)
    expect(after.find((k: any) => k.id === bob.id)).toMatchObject({
      name: 'robert',
      cu_quota: 10,
      rps: null,
      profile: null,
      cu_used: 2,
    })
    expect(after.find((k: any) => k.id === alice.id).profile).toBeNull()
  }, 180_000)

  test('error: unknown ids, bad values, nothing to change', async () => {
    const cases: [string[], string][] = [
      [['revoke', 'key_nope'], 'error: No API key with id key_nope.\n'],
      [['set', 'key_nope', '--rps', '3'], 'error: No API key with id key_nope.\n'],
      [
        ['set', 'key_nope'],
        'error: Nothing to change: give --name, --cu-quota, --rps or --profile.\n',
      ],
      [
        ['create', '--name', 'x', '--profile', 'dune'],
        "error: option '--profile <default|sim>' argument 'dune' is invalid. expected one of default, sim.\n(run with --help for usage)\n",
      ],
      [
        ['create', '--name', 'x', '--account', 'acct_nope'],
        'error: No account with id acct_nope.\n',
      ],
      [
        ['create', '--name', 'x', '--rps', '0'],
        "error: option '--rps <n>' argument '0' is invalid. expected a whole number of at least 1.\n(run with --help for usage)\n",
      ],
      [
        ['set', 'key_x', '--cu-quota', '-5'],
        "error: option '--cu-quota <n|none>' argument '-5' is invalid. expected a whole number of at least 0, or none.\n(run with --help for usage)\n",
      ],
      [
        ['create', '--name', ' '],
        "error: option '--name <name>' argument ' ' is invalid. expected a name of 1 to 200 characters on one line.\n(run with --help for usage)\n",
      ],
      [
        ['set', 'key_x', '--name', 'a\nb'],
        "error: option '--name <name>' argument 'a\nb' is invalid. expected a name of 1 to 200 characters on one line.\n(run with --help for usage)\n",
      ],
      [
        ['create'],
        "error: required option '--name <name>' not specified\n(run with --help for usage)\n",
      ],
    ]
    const results = []
    for (const [args] of cases) results.push(await scryHere(database, ...args))
    for (const [i, [args, message]] of cases.entries()) {
      expect(results[i], args.join(' ')).toEqual({ code: 1, stdout: '', stderr: message })
    }
    // A revoked key's settings apply to nothing: changing them is refused, saying what to do.
    const created = JSON.parse((await scryHere(database, 'create', '--name', 'r', '--json')).stdout)
    expect((await scryHere(database, 'revoke', created.id)).code).toBe(0)
    const revoked = await scryHere(database, 'set', created.id, '--rps', '5')
    expect(revoked.code).toBe(1)
    expect(revoked.stderr).toMatch(
      new RegExp(
        `^error: Key ${created.id} was revoked on \\S+; it cannot be changed\\.\nCreate a new key for its account instead: scry keys create --account ${created.account_id} --name <name>\\.\n$`,
      ),
    )
  })
})

describe.each(DIALECTS.filter((d) => d === 'postgres'))('%s', (dialect) => {
  test('default: create and list', async () => {
    const { url, drop } = await createTestDatabase(dialect)
    try {
      // A database `scry migrate` made (keys refuse one without Scry's tables).
      const migrated = createStore({ url })
      await migrated.migrate()
      await migrated.close()
      const created = await scryHere(url, 'create', '--name', 'pg', '--cu-quota', '5', '--json')
      expect(created.code).toBe(0)
      const key = JSON.parse(created.stdout)
      const { keys } = JSON.parse((await scryHere(url, 'list', '--json')).stdout)
      expect(keys).toEqual([
        {
          id: key.id,
          name: 'pg',
          account_id: key.account_id,
          account_name: 'pg',
          cu_quota: 5,
          cu_used: 0,
          period: expect.stringMatching(/^\d{4}-\d\d$/),
          rps: null,
          profile: null,
          created_at: key.created_at,
          revoked_at: null,
        },
      ])
    } finally {
      await drop()
    }
  })
})
