import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { ConfigError } from '../internal/errors.ts'
import { resolveConfig } from './resolveConfig.ts'
import type { ScryConfig } from './types.ts'

let cwd: string
beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'scry-config-'))
})
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true })
})

const writeJson = (name: string, content: unknown) =>
  writeFile(join(cwd, name), JSON.stringify(content, null, 2))

/** The config without the (large) catalogue, with the temp dir shown as `<cwd>`. */
function summary(config: ScryConfig) {
  const { catalogue: _, ...rest } = config
  return JSON.parse(JSON.stringify(rest).replaceAll(cwd, '<cwd>'))
}

async function issuesOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as ConfigError).message.replaceAll(cwd, '<cwd>')
  }
  throw new Error('expected a ConfigError')
}

test('default', async () => {
  const config = await resolveConfig({ env: {}, cwd })
  expect(summary(config)).toMatchInlineSnapshot(`
    {
      "auth": {
        "headerAliases": [],
      },
      "chains": [],
      "dataDir": "<cwd>/.scry",
      "database": "<cwd>/.scry/scry.sqlite",
      "indexer": {
        "standbyTakeoverSeconds": 120,
      },
      "log": {
        "level": "info",
      },
      "nft": {
        "allowPrivateFetch": false,
        "ipfsGateway": "https://ipfs.io/ipfs/",
      },
      "server": {
        "host": "127.0.0.1",
        "port": 8080,
        "responseProfile": "default",
        "trustProxy": false,
      },
      "svm": [],
      "webhooks": {
        "allowHttp": false,
        "allowPrivateAddresses": false,
        "concurrency": 4,
      },
    }
  `)
  expect(config.catalogue.length).toBeGreaterThan(90)
})

test('args: flags, one chain with every option', async () => {
  const config = await resolveConfig({
    env: {},
    cwd,
    flags: {
      database: 'postgres://scry:secret@db.local:5432/scry',
      dataDir: 'state',
      host: '0.0.0.0',
      port: '9000',
      logLevel: 'debug',
      rpc: ['8453=https://base.example/v2/KEY'],
      startBlock: ['8453=1000'],
      finalityDepth: ['8453=10'],
      traces: ['8453=off'],
      batchSize: ['8453=20'],
      fetchConcurrency: ['8453=2'],
      rpcBatchSize: ['8453=5'],
      pollIntervalMs: ['8453=250'],
      usdc: ['8453=0x00000000000000000000000000000000000000AA'],
      wrappedNative: ['8453=0x00000000000000000000000000000000000000bb'],
      dexFactory: [
        '8453=uniswap_v2:0x00000000000000000000000000000000000000c2,uniswap_v3:0x00000000000000000000000000000000000000C3',
      ],
      minPoolLiquidityUsd: ['8453=5000'],
      unlistedVaults: ['8453=list'],
      deniedVault: ['8453=0x00000000000000000000000000000000000000DD'],
      stablecoin: ['8453=0x00000000000000000000000000000000000000EE'],
    },
  })
  expect(summary(config)).toMatchInlineSnapshot(`
    {
      "auth": {
        "headerAliases": [],
      },
      "chains": [
        {
          "batchSize": 20,
          "batchTransactions": 1000,
          "chainId": 8453,
          "deniedVaults": [
            "0x00000000000000000000000000000000000000dd",
          ],
          "dexFactories": [
            {
              "address": "0x00000000000000000000000000000000000000c2",
              "type": "uniswap_v2",
            },
            {
              "address": "0x00000000000000000000000000000000000000c3",
              "type": "uniswap_v3",
            },
          ],
          "expectedChainId": 8453,
          "fetchConcurrency": 2,
          "finalityDepth": 10,
          "minPoolLiquidityUsd": 5000,
          "name": "base",
          "pollIntervalMs": 250,
          "rpc": [
            "https://base.example/v2/KEY",
          ],
          "rpcBatchSize": 5,
          "stablecoins": [
            "0x00000000000000000000000000000000000000ee",
          ],
          "startBlock": 1000,
          "traces": "off",
          "unlistedVaults": "list",
          "usdc": [
            "0x00000000000000000000000000000000000000aa",
          ],
          "wrappedNative": "0x00000000000000000000000000000000000000bb",
        },
      ],
      "dataDir": "<cwd>/state",
      "database": "postgres://scry:secret@db.local:5432/scry",
      "indexer": {
        "standbyTakeoverSeconds": 120,
      },
      "log": {
        "level": "debug",
      },
      "nft": {
        "allowPrivateFetch": false,
        "ipfsGateway": "https://ipfs.io/ipfs/",
      },
      "server": {
        "host": "0.0.0.0",
        "port": 9000,
        "responseProfile": "default",
        "trustProxy": false,
      },
      "svm": [],
      "webhooks": {
        "allowHttp": false,
        "allowPrivateAddresses": false,
        "concurrency": 4,
      },
    }
  `)
})

test('args: --rpc repeated or comma-separated gives several urls', async () => {
  const repeated = await resolveConfig({
    env: {},
    cwd,
    flags: { rpc: ['1=http://a', '1=http://b', '10=ws://c'] },
  })
  expect(repeated.chains.map(({ chainId, rpc }) => ({ chainId, rpc }))).toEqual([
    { chainId: 1, rpc: ['http://a', 'http://b'] },
    { chainId: 10, rpc: ['ws://c'] },
  ])
  const commas = await resolveConfig({ env: {}, cwd, flags: { rpc: ['1=http://a, http://b'] } })
  expect(commas.chains[0]?.rpc).toEqual(['http://a', 'http://b'])
})

test('args: environment', async () => {
  const config = await resolveConfig({
    cwd,
    env: {
      SCRY_DATA_DIR: '/var/lib/scry',
      SCRY_HOST: '::1',
      SCRY_PORT: '8081',
      SCRY_LOG_LEVEL: 'warn',
      SCRY_RPC_8453: 'https://a.example, wss://b.example/ws',
      SCRY_FINALITY_DEPTH_8453: '12',
      SCRY_RPC_BATCH_SIZE_8453: '7',
      SCRY_TRACES_42161: 'off',
      SCRY_PORT_EMPTY: 'ignored',
      SCRY_START_BLOCK_1: '',
      UNRELATED: 'x',
    },
  })
  expect(summary(config)).toMatchInlineSnapshot(`
    {
      "auth": {
        "headerAliases": [],
      },
      "chains": [
        {
          "batchSize": 100,
          "batchTransactions": 1000,
          "chainId": 8453,
          "deniedVaults": [],
          "dexFactories": [
            {
              "address": "0x8909dc15e40173ff4699343b6eb8132c65e18ec6",
              "type": "uniswap_v2",
            },
            {
              "address": "0x33128a8fc17869897dce68ed026d694621f6fdfd",
              "type": "uniswap_v3",
            },
            {
              "address": "0x0bfbcf9fa4f9c56b0f40a671ad40e0805a091865",
              "type": "uniswap_v3",
            },
          ],
          "expectedChainId": 8453,
          "fetchConcurrency": 4,
          "finalityDepth": 12,
          "minPoolLiquidityUsd": 1000,
          "name": "base",
          "pollIntervalMs": 1000,
          "rpc": [
            "https://a.example",
            "wss://b.example/ws",
          ],
          "rpcBatchSize": 7,
          "stablecoins": [],
          "startBlock": 0,
          "traces": "auto",
          "unlistedVaults": "value",
          "usdc": [
            "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913",
          ],
          "wrappedNative": "0x4200000000000000000000000000000000000006",
        },
      ],
      "dataDir": "/var/lib/scry",
      "database": "/var/lib/scry/scry.sqlite",
      "indexer": {
        "standbyTakeoverSeconds": 120,
      },
      "log": {
        "level": "warn",
      },
      "nft": {
        "allowPrivateFetch": false,
        "ipfsGateway": "https://ipfs.io/ipfs/",
      },
      "server": {
        "host": "::1",
        "port": 8081,
        "responseProfile": "default",
        "trustProxy": false,
      },
      "svm": [],
      "webhooks": {
        "allowHttp": false,
        "allowPrivateAddresses": false,
        "concurrency": 4,
      },
    }
  `)
})

test('behavior: precedence defaults < file < env < flags', async () => {
  await writeJson('scry.config.json', {
    server: { host: 'file.local', port: 1000 },
    log: { level: 'error' },
    chains: { '1': { rpc: 'http://file', finalityDepth: 10, startBlock: 5 } },
  })
  const env = { SCRY_PORT: '2000', SCRY_FINALITY_DEPTH_1: '20', SCRY_RPC_1: 'http://env' }
  const flags = { port: '3000', rpc: ['1=http://flag'] }

  const fileOnly = await resolveConfig({ env: {}, cwd })
  expect(fileOnly.server).toMatchObject({ host: 'file.local', port: 1000 })
  expect(fileOnly.chains[0]).toMatchObject({ rpc: ['http://file'], finalityDepth: 10 })

  const withEnv = await resolveConfig({ env, cwd })
  expect(withEnv.server).toMatchObject({ host: 'file.local', port: 2000 })
  expect(withEnv.chains[0]).toMatchObject({ rpc: ['http://env'], finalityDepth: 20, startBlock: 5 })

  const withFlags = await resolveConfig({ env, cwd, flags })
  expect(withFlags.server).toMatchObject({ host: 'file.local', port: 3000 })
  expect(withFlags.log.level).toBe('error')
  expect(withFlags.chains[0]).toMatchObject({
    rpc: ['http://flag'],
    finalityDepth: 20,
    startBlock: 5,
    batchSize: 100,
  })
})

test('behavior: chains without an rpc source are not enabled', async () => {
  await writeJson('scry.config.json', {
    chains: { '1': { finalityDepth: 3 }, '10': { rpc: [] }, '8453': { rpc: 'http://b' } },
  })
  const config = await resolveConfig({ env: {}, cwd })
  expect(config.chains.map((chain) => chain.chainId)).toEqual([8453])
})

test('behavior: .ts config file with catalogue additions', async () => {
  await writeFile(
    join(cwd, 'scry.config.ts'),
    `const depth: number = 2
export default {
  database: 'data/db.sqlite',
  catalogue: [{ chainId: 31337, name: 'local', tags: ['devnet'] }],
  chains: { '31337': { rpc: ['http://127.0.0.1:8545'], finalityDepth: depth } },
}
`,
  )
  const config = await resolveConfig({ env: {}, cwd })
  expect(summary(config)).toMatchInlineSnapshot(`
    {
      "auth": {
        "headerAliases": [],
      },
      "chains": [
        {
          "batchSize": 100,
          "batchTransactions": 1000,
          "chainId": 31337,
          "deniedVaults": [],
          "dexFactories": [],
          "expectedChainId": 31337,
          "fetchConcurrency": 4,
          "finalityDepth": 2,
          "minPoolLiquidityUsd": 1000,
          "name": "local",
          "pollIntervalMs": 1000,
          "rpc": [
            "http://127.0.0.1:8545",
          ],
          "rpcBatchSize": 50,
          "stablecoins": [],
          "startBlock": 0,
          "traces": "auto",
          "unlistedVaults": "value",
          "usdc": [],
          "wrappedNative": null,
        },
      ],
      "configFile": "<cwd>/scry.config.ts",
      "dataDir": "<cwd>/.scry",
      "database": "<cwd>/data/db.sqlite",
      "indexer": {
        "standbyTakeoverSeconds": 120,
      },
      "log": {
        "level": "info",
      },
      "nft": {
        "allowPrivateFetch": false,
        "ipfsGateway": "https://ipfs.io/ipfs/",
      },
      "server": {
        "host": "127.0.0.1",
        "port": 8080,
        "responseProfile": "default",
        "trustProxy": false,
      },
      "svm": [],
      "webhooks": {
        "allowHttp": false,
        "allowPrivateAddresses": false,
        "concurrency": 4,
      },
    }
  `)
  expect(config.catalogue.find((chain) => chain.chainId === 31337)?.tags).toEqual(['devnet'])
})

test('behavior: .ts config file inside an ESM package', async () => {
  await writeJson('package.json', { type: 'module' })
  await writeFile(
    join(cwd, 'scry.config.ts'),
    'const port: number = 9999\nexport default { server: { port } }\n',
  )
  const config = await resolveConfig({ env: {}, cwd })
  expect(config.server.port).toBe(9999)
})

test('behavior: --config and SCRY_CONFIG pick a file', async () => {
  await mkdir(join(cwd, 'conf'))
  await writeJson('conf/a.json', { server: { port: 1 } })
  await writeJson('conf/b.json', { server: { port: 2 } })
  const fromEnv = await resolveConfig({ env: { SCRY_CONFIG: 'conf/a.json' }, cwd })
  expect(fromEnv.server.port).toBe(1)
  expect(fromEnv.configFile).toBe(join(cwd, 'conf/a.json'))
  const fromFlag = await resolveConfig({
    env: { SCRY_CONFIG: 'conf/a.json' },
    flags: { config: 'conf/b.json' },
    cwd,
  })
  expect(fromFlag.server.port).toBe(2)
})

test('behavior: database paths and urls', async () => {
  const memory = await resolveConfig({ env: { SCRY_DATABASE: ':memory:' }, cwd })
  expect(memory.database).toBe(':memory:')
  const relative = await resolveConfig({ env: {}, flags: { database: 'x/scry.db' }, cwd })
  expect(relative.database).toBe(join(cwd, 'x/scry.db'))
  const dataDir = await resolveConfig({ env: {}, flags: { dataDir: 'd' }, cwd })
  expect(dataDir.database).toBe(join(cwd, 'd/scry.sqlite'))
  // A sqlite: URL is the file it names, not a path under the working directory.
  for (const [url, file] of [
    ['sqlite:///var/lib/scry.db', '/var/lib/scry.db'],
    ['sqlite:/var/lib/scry.db', '/var/lib/scry.db'],
    ['sqlite:x/scry.db', join(cwd, 'x/scry.db')],
  ] as const) {
    const config = await resolveConfig({ env: {}, flags: { database: url }, cwd })
    expect(config.database).toBe(file)
  }
  await expect(resolveConfig({ env: {}, flags: { database: 'sqlite://' }, cwd })).rejects.toThrow(
    /--database: expected a postgres:\/\/ URL or a SQLite file path/,
  )
})

test('error: every problem of a config file, reported together', async () => {
  await writeJson('scry.config.json', {
    databse: 'typo.sqlite',
    database: 'mysql://root:pw@db.local/scry',
    server: { port: '8080', hots: 'x' },
    log: { level: 'verbose' },
    chains: {
      base: { rpc: 'https://base.example' },
      '8453': {
        rpc: ['https://base.example/v2/SECRET', 'ftp://user:pw@files.example/KEY'],
        finalityDepth: -1,
        traces: 'on',
        batchSize: 0,
        finality: 3,
      },
      '10': { rpc: 42 },
      '999999': { rpc: 'http://x.example' },
    },
  })
  expect(await issuesOf(resolveConfig({ env: {}, cwd }))).toMatchInlineSnapshot(`
    "Invalid configuration:
      - databse: unknown key (expected one of database, databaseRead, dataDir, server, log, auth, redis, nft, webhooks, indexer, chains, catalogue, svm)
      - server.hots: unknown key (expected one of host, port, tlsCert, tlsKey, trustProxy, responseProfile, readyMaxLagBlocks)
      - database: expected a postgres:// URL or a SQLite file path, got mysql://db.local
      - server.port: expected an integer from 0 to 65535, got "8080"
      - log.level: expected one of trace, debug, info, warn, error, fatal, silent, got "verbose"
      - chains.10.rpc: expected a URL or an array of http(s) or ws(s) URLs, got 42
      - chains.8453.finality: unknown key (expected one of rpc, startBlock, finalityDepth, traces, batchSize, batchTransactions, fetchConcurrency, rpcBatchSize, pollIntervalMs, usdc, wrappedNative, dexFactories, minPoolLiquidityUsd, genesis, unlistedVaults, deniedVaults, stablecoins, defiProtocols)
      - chains.8453.rpc: expected http(s) or ws(s) URLs, got ftp://files.example
      - chains.8453.finalityDepth: expected an integer ≥ 0, got -1
      - chains.8453.traces: expected one of auto, debug, parity, off, got "on"
      - chains.8453.batchSize: expected an integer ≥ 1, got 0
      - chains.base: expected a numeric chain id as key, got "base"
      - chains.999999: chain 999999 is not in the catalogue; add it to "catalogue" in the config file, e.g. { "chainId": 999999, "name": "my_chain", "tags": ["default"] } (the default tag: answered when a request names no chain_ids)

    Details: config file: <cwd>/scry.config.json"
  `)
})

test('error: catalogue entries', async () => {
  await writeJson('scry.config.json', {
    catalogue: [
      { chainId: 31337 },
      { chainId: 0, name: 'Bad Name', tags: ['mainnet', 'prod'], endpoints: { swaps: true } },
      { chainId: 5, name: 'x', endpoints: { balances: 'yes' } },
      'nope',
    ],
    chains: { '31337': { rpc: 'http://127.0.0.1:8545' } },
  })
  expect(await issuesOf(resolveConfig({ env: {}, cwd }))).toMatchInlineSnapshot(`
    "Invalid configuration:
      - catalogue[1].chainId: expected an integer ≥ 1, got 0
      - catalogue[1].name: expected lowercase letters, digits and _ (e.g. "my_chain"), got "Bad Name"
      - catalogue[1].tags: expected an array of default, mainnet, testnet, devnet, omni, got "prod"
      - catalogue[1].endpoints.swaps: unknown key (expected one of balances, activity, transactions, collectibles, token_info, token_holders, defi_positions)
      - catalogue[2].endpoints.balances: expected true or false, got "yes"
      - catalogue[3]: expected an object, got "nope"

    Details: config file: <cwd>/scry.config.json"
  `)

  await writeJson('scry.config.json', {
    catalogue: [{ chainId: 31337 }, { chainId: 31338, name: 'base' }],
  })
  expect(await issuesOf(resolveConfig({ env: {}, cwd }))).toMatchInlineSnapshot(`
    "Invalid configuration:
      - catalogue[0].name: chain 31337 is not built in, so it needs a name

    Details: config file: <cwd>/scry.config.json"
  `)
})

test('error: flags', async () => {
  const error = await issuesOf(
    resolveConfig({
      env: {},
      cwd,
      flags: {
        port: '80a',
        host: 'two words',
        logLevel: 'loud',
        database: 'postgres://',
        rpc: ['abc', 'https://key.example/v2/SECRET', '1=', '1=file:///etc/passwd', '2=http://x'],
        startBlock: ['1=-5'],
        traces: ['1=full'],
        batchSize: ['one=1'],
      },
    }),
  )
  expect(error).toMatchInlineSnapshot(`
    "Invalid configuration:
      - --database: expected a postgres:// URL or a SQLite file path, got "postgres…"
      - --host: expected a host name or IP address, got "two words"
      - --port: expected an integer from 0 to 65535, got "80a"
      - --log-level: expected one of trace, debug, info, warn, error, fatal, silent, got "loud"
      - --rpc: expected <chainId>=<url>, got "abc"
      - --rpc: expected <chainId>=<url>, got https://key.example
      - --rpc (chain 1): expected http(s) or ws(s) URLs, got nothing
      - --rpc (chain 1): expected http(s) or ws(s) URLs, got "file…"
      - --start-block (chain 1): expected an integer ≥ 0, got "-5"
      - --traces (chain 1): expected one of auto, debug, parity, off, got "full"
      - --batch-size: expected <chainId>=<value>, got "one=1"
      - --rpc 2=…: chain 2 is not in the catalogue; add it to "catalogue" in the config file, e.g. { "chainId": 2, "name": "my_chain", "tags": ["default"] } (the default tag: answered when a request names no chain_ids)"
  `)
})

test('error: environment', async () => {
  const error = await issuesOf(
    resolveConfig({
      cwd,
      env: {
        SCRY_PORT: '70000',
        SCRY_LOG_LEVEL: 'INFO',
        SCRY_RPC_1: 'eth.example/v2/SECRET',
        SCRY_POLL_INTERVAL_MS_1: '0',
        SCRY_DATABASE: 'postgresql://u:SECRET@/x',
      },
    }),
  )
  expect(error).toMatchInlineSnapshot(`
    "Invalid configuration:
      - SCRY_DATABASE: expected a postgres:// URL or a SQLite file path, got "postgresql…"
      - SCRY_PORT: expected an integer from 0 to 65535, got "70000"
      - SCRY_LOG_LEVEL: expected one of trace, debug, info, warn, error, fatal, silent, got "INFO"
      - SCRY_RPC_1: expected http(s) or ws(s) URLs, got "eth.example…"
      - SCRY_POLL_INTERVAL_MS_1: expected an integer ≥ 1, got "0""
  `)
})

test('error: unknown chain id from env and flags', async () => {
  expect(
    await issuesOf(
      resolveConfig({
        cwd,
        env: { SCRY_RPC_123456789: 'http://a' },
        flags: { rpc: ['987654321=http://b'] },
      }),
    ),
  ).toMatchInlineSnapshot(`
    "Invalid configuration:
      - SCRY_RPC_123456789: chain 123456789 is not in the catalogue; add it to "catalogue" in the config file, e.g. { "chainId": 123456789, "name": "my_chain", "tags": ["default"] } (the default tag: answered when a request names no chain_ids)
      - --rpc 987654321=…: chain 987654321 is not in the catalogue; add it to "catalogue" in the config file, e.g. { "chainId": 987654321, "name": "my_chain", "tags": ["default"] } (the default tag: answered when a request names no chain_ids)"
  `)
})

test('error: config files that cannot be read', async () => {
  expect(
    await issuesOf(resolveConfig({ env: {}, cwd, flags: { config: 'missing.json' } })),
  ).toMatchInlineSnapshot(`
    "Invalid configuration:
      - --config: file not found: missing.json"
  `)

  await writeFile(join(cwd, 'scry.config.json'), '{\n  "database": "x",\n  "server": {,\n}')
  expect(await issuesOf(resolveConfig({ env: {}, cwd }))).toMatchInlineSnapshot(`
    "Invalid configuration:
      - config file: invalid JSON at line 3, column 14

    Details: config file: <cwd>/scry.config.json"
  `)

  await writeFile(join(cwd, 'scry.config.ts'), 'export const config = {}\n')
  expect(await issuesOf(resolveConfig({ env: {}, cwd }))).toMatchInlineSnapshot(`
    "Invalid configuration:
      - config file: found both scry.config.ts and scry.config.json; keep one, or pick one with --config"
  `)

  expect(
    await issuesOf(resolveConfig({ env: {}, cwd, flags: { config: 'scry.config.ts' } })),
  ).toMatchInlineSnapshot(`
    "Invalid configuration:
      - config file: expected a default export with the configuration object

    Details: config file: <cwd>/scry.config.ts"
  `)

  await writeFile(join(cwd, 'a.yaml'), 'port: 1\n')
  await writeJson('b.json', [1, 2])
  expect(
    await issuesOf(resolveConfig({ env: {}, cwd, flags: { config: 'a.yaml' } })),
  ).toMatchInlineSnapshot(`
    "Invalid configuration:
      - --config: expected a .json, .ts, .mts, .js or .mjs file, got a.yaml

    Details: config file: <cwd>/a.yaml"
  `)
  expect(
    await issuesOf(resolveConfig({ env: {}, cwd, flags: { config: 'b.json' } })),
  ).toMatchInlineSnapshot(`
    "Invalid configuration:
      - config file: expected an object, got an array

    Details: config file: <cwd>/b.json"
  `)
})

test('error: a config path that is a directory; a takeover time PostgreSQL cannot hold', async () => {
  await mkdir(join(cwd, 'dir.json'), { recursive: true })
  expect(await issuesOf(resolveConfig({ env: {}, cwd, flags: { config: 'dir.json' } }))).toMatch(
    /^Invalid configuration:\n {2}- config file: cannot read: EISDIR/,
  )
  expect(
    await issuesOf(resolveConfig({ env: {}, cwd, flags: { standbyTakeoverSeconds: '4294968' } })),
  ).toMatch(/--standby-takeover-seconds: expected an integer from 10 to 2592000, got "4294968"/)
})

test('args: server, auth, redis, NFT and cursor options', async () => {
  await writeJson('scry.config.json', {
    server: { tlsCert: 'tls/cert.pem', tlsKey: 'tls/key.pem', trustProxy: true },
    auth: { headerAliases: ['X-Sim-Api-Key'] },
    nft: { ipfsGateway: 'http://127.0.0.1:8081/ipfs/' },
  })
  const config = await resolveConfig({
    env: {
      SCRY_REDIS: 'redis://127.0.0.1:6379',
      SCRY_CURSOR_SECRET: 's3cret',
      SCRY_NFT_ALLOW_PRIVATE_FETCH: 'true',
    },
    cwd,
  })
  expect(summary(config)).toMatchObject({
    server: { tls: { cert: '<cwd>/tls/cert.pem', key: '<cwd>/tls/key.pem' }, trustProxy: true },
    auth: { headerAliases: ['X-Sim-Api-Key'] },
    redis: 'redis://127.0.0.1:6379',
    nft: { ipfsGateway: 'http://127.0.0.1:8081/ipfs/', allowPrivateFetch: true },
    cursorSecret: 's3cret',
  })
})

test('error: a certificate without a key, a bad redis url, bad header names', async () => {
  await writeJson('scry.config.json', {
    server: { tlsCert: 'cert.pem', trustProxy: 'yes', responseProfile: 'dune' },
    auth: { headerAliases: ['X Sim'] },
    redis: 'http://localhost',
  })
  expect(await issuesOf(resolveConfig({ env: {}, cwd }))).toMatchInlineSnapshot(`
    "Invalid configuration:
      - server.trustProxy: expected true or false, got "yes"
      - server.responseProfile: expected "default" or "sim", got "dune"
      - auth.headerAliases: expected HTTP header names (letters, digits, dashes), got an array
      - redis: expected a redis or rediss URL, got http://localhost
      - server.tlsCert / server.tlsKey: give both the certificate and the key, or neither

    Details: config file: <cwd>/scry.config.json"
  `)
})

test('error: a read replica beside SQLite, a read replica that is not PostgreSQL', async () => {
  expect(
    await issuesOf(resolveConfig({ env: { SCRY_DATABASE_READ: 'postgres://replica/scry' }, cwd })),
  ).toMatchInlineSnapshot(`
    "Invalid configuration:
      - databaseRead: a read replica needs a PostgreSQL database (database: postgres://…)"
  `)
  expect(
    await issuesOf(
      resolveConfig({
        flags: { database: 'postgres://db/scry', databaseRead: 'mysql://replica/scry' },
        env: {},
        cwd,
      }),
    ),
  ).toMatchInlineSnapshot(`
    "Invalid configuration:
      - --database-read: expected a postgres or postgresql URL, got mysql://replica"
  `)
})

test('args: server and auth flags', async () => {
  const config = await resolveConfig({
    flags: {
      authHeaderAlias: 'X-Sim-Api-Key,X-Api-Key',
      trustProxy: 'true',
      redis: 'redis://127.0.0.1:6379',
      nftAllowPrivateFetch: 'false',
      ipfsGateway: 'http://127.0.0.1:8081/ipfs/',
    },
    env: {},
    cwd,
  })
  expect(config.auth.headerAliases).toEqual(['X-Sim-Api-Key', 'X-Api-Key'])
  expect(config.server.trustProxy).toBe(true)
  expect(config.redis).toBe('redis://127.0.0.1:6379')
  expect(config.nft).toEqual({
    ipfsGateway: 'http://127.0.0.1:8081/ipfs/',
    allowPrivateFetch: false,
  })
})

test('args: the response profile from the file, the environment and a flag', async () => {
  await writeJson('scry.config.json', { server: { responseProfile: 'sim' } })
  expect((await resolveConfig({ env: {}, cwd })).server.responseProfile).toBe('sim')
  const env = { SCRY_RESPONSE_PROFILE: 'default' }
  expect((await resolveConfig({ env, cwd })).server.responseProfile).toBe('default')
  const flags = { responseProfile: 'sim' }
  expect((await resolveConfig({ env, flags, cwd })).server.responseProfile).toBe('sim')
  expect(
    await issuesOf(resolveConfig({ env: { SCRY_RESPONSE_PROFILE: 'Sim' }, flags: {}, cwd })),
  ).toContain('SCRY_RESPONSE_PROFILE: expected "default" or "sim", got "Sim"')
})

test('error: price settings name what they expect', async () => {
  const issues = await issuesOf(
    resolveConfig({
      env: {},
      cwd,
      flags: {
        rpc: ['1=https://eth.example'],
        usdc: ['1=0x1234'],
        wrappedNative: ['1=weth'],
        dexFactory: ['1=sushi:0x00000000000000000000000000000000000000c2'],
        minPoolLiquidityUsd: ['1=-5'],
      },
    }),
  )
  expect(issues).toContain('addresses (0x and 40 hex digits)')
  expect(issues).toContain('an address (0x and 40 hex digits)')
  expect(issues).toContain('uniswap_v2:<address> or uniswap_v3:<address>, got "sushi:0x')
  expect(issues).toContain('an integer ≥ 0, got "-5"')
})

test('args: defiProtocols from the file, the environment and flags replace the shipped deployment', async () => {
  const [a, b, c] = ['aa', 'bb', 'cc'].map((x) => `0x${x.repeat(20)}`) as [string, string, string]
  await writeJson('scry.config.json', {
    chains: {
      '1': { rpc: 'http://a', defiProtocols: [`uniswap_v3:${a}:${b}:PancakeV3`, `lido:${a}:${b}`] },
      '10': { rpc: 'http://b', defiProtocols: [] },
      '8453': { rpc: 'http://c' },
    },
  })
  const config = await resolveConfig({
    env: { SCRY_DEFI_PROTOCOLS_10: `aave_v3:${c}` },
    cwd,
    flags: { defiProtocol: [`1=erc4626:${c}:Yearn`, `1=uniswap_v2:${a}:SushiSwapV2`] },
  })
  const defi = (id: number) => config.chains.find((x) => x.chainId === id)?.defi
  // Flags win over the file for chain 1, and their entries add up.
  expect(defi(1)).toEqual({
    v3Managers: [],
    v4Managers: [],
    v2Protocols: { [a]: 'SushiSwapV2' },
    vaults: [{ address: c, protocol: 'Yearn' }],
    aaveV3Pools: [],
    aaveV2Pools: [],
    fromBlocks: {},
    preview: [],
  })
  expect(defi(10)?.aaveV3Pools).toEqual([c])
  expect(defi(10)?.off).toBeUndefined()
  // Not set: the shipped deployment (`defiDeployment` falls back to it).
  expect(defi(8453)).toBeUndefined()
})

test('error: defiProtocols entries name the forms they may take', async () => {
  const issues = await issuesOf(
    resolveConfig({
      env: {},
      cwd,
      flags: {
        rpc: ['1=https://eth.example'],
        defiProtocol: ['1=aave_v4:0x00000000000000000000000000000000000000c2'],
      },
    }),
  )
  expect(issues).toContain('aave_v3:<pool>')
  expect(issues).toContain('@<deployment block>')
  expect(issues).toContain('got "aave_v4:0x')
})

test('error: a per-chain flag for a chain given no rpc is refused; the environment and the file may keep such settings', async () => {
  const flags = { rpc: ['1=http://a.example'], batchSize: ['8453=5'], fetchConcurrency: ['999=3'] }
  expect(await issuesOf(resolveConfig({ env: {}, cwd, flags }))).toMatchInlineSnapshot(`
    "Invalid configuration:
      - --fetch-concurrency 999=…: chain 999 has no rpc; give it one (--rpc 999=<url>) or drop the flag
      - --batch-size 8453=…: chain 8453 has no rpc; give it one (--rpc 8453=<url>) or drop the flag"
  `)
  const env = { SCRY_RPC_1: 'http://a.example', SCRY_BATCH_SIZE_8453: '5' }
  expect((await resolveConfig({ env, cwd })).chains.map((c) => c.chainId)).toEqual([1])
  await writeJson('scry.config.json', {
    chains: { '1': { rpc: 'http://a.example' }, '8453': { batchSize: 5 } },
  })
  expect((await resolveConfig({ env: {}, cwd })).chains.map((c) => c.chainId)).toEqual([1])
})
