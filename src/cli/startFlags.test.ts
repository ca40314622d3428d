import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { resolveConfig } from '../config/resolveConfig.ts'
import type { ScryConfig } from '../config/types.ts'
import { configFlags, main, parseCommandLine } from './main.ts'
import { parseRoles } from './parseRoles.ts'

const cwd = mkdtempSync(join(tmpdir(), 'scry-flags-'))
afterAll(() => rmSync(cwd, { recursive: true, force: true }))
writeFileSync(join(cwd, 'other.json'), JSON.stringify({ log: { level: 'warn' } }))

const A = '0x00000000000000000000000000000000000000aa'
const B = '0x00000000000000000000000000000000000000bb'
const chain1 = (c: ScryConfig) => c.chains.find((x) => x.chainId === 1)

/** For each flag: arguments that set it, and where its value must land in the config. */
const SAMPLES: Record<string, { args: string[]; read: (c: ScryConfig) => unknown; want: unknown }> =
  {
    '--config': { args: ['--config', 'other.json'], read: (c) => c.log.level, want: 'warn' },
    '--database': {
      args: ['--database', 'postgres://db/scry'],
      read: (c) => c.database,
      want: 'postgres://db/scry',
    },
    '--database-read': {
      args: ['--database', 'postgres://db/scry', '--database-read', 'postgres://replica/scry'],
      read: (c) => c.databaseRead,
      want: 'postgres://replica/scry',
    },
    '--data-dir': {
      args: ['--data-dir', 'state'],
      read: (c) => c.dataDir,
      want: join(cwd, 'state'),
    },
    '--host': { args: ['--host', '0.0.0.0'], read: (c) => c.server.host, want: '0.0.0.0' },
    '--port': { args: ['--port', '9001'], read: (c) => c.server.port, want: 9001 },
    '--log-level': { args: ['--log-level', 'debug'], read: (c) => c.log.level, want: 'debug' },
    '--tls-cert': {
      args: ['--tls-cert', 'c.pem', '--tls-key', 'k.pem'],
      read: (c) => c.server.tls?.cert,
      want: join(cwd, 'c.pem'),
    },
    '--tls-key': {
      args: ['--tls-cert', 'c.pem', '--tls-key', 'k.pem'],
      read: (c) => c.server.tls?.key,
      want: join(cwd, 'k.pem'),
    },
    '--trust-proxy': {
      args: ['--trust-proxy', 'true'],
      read: (c) => c.server.trustProxy,
      want: true,
    },
    '--ready-max-lag-blocks': {
      args: ['--ready-max-lag-blocks', '64'],
      read: (c) => c.server.readyMaxLagBlocks,
      want: 64,
    },
    '--auth-header-alias': {
      args: ['--auth-header-alias', 'X-Sim-Api-Key'],
      read: (c) => c.auth.headerAliases,
      want: ['X-Sim-Api-Key'],
    },
    '--redis': {
      args: ['--redis', 'redis://127.0.0.1:6379'],
      read: (c) => c.redis,
      want: 'redis://127.0.0.1:6379',
    },
    '--ipfs-gateway': {
      args: ['--ipfs-gateway', 'http://127.0.0.1:8081/ipfs/'],
      read: (c) => c.nft.ipfsGateway,
      want: 'http://127.0.0.1:8081/ipfs/',
    },
    '--nft-allow-private-fetch': {
      args: ['--nft-allow-private-fetch', 'true'],
      read: (c) => c.nft.allowPrivateFetch,
      want: true,
    },
    '--webhooks-allow-http': {
      args: ['--webhooks-allow-http', 'true'],
      read: (c) => c.webhooks.allowHttp,
      want: true,
    },
    '--webhooks-allow-private-addresses': {
      args: ['--webhooks-allow-private-addresses', 'true'],
      read: (c) => c.webhooks.allowPrivateAddresses,
      want: true,
    },
    '--webhooks-concurrency': {
      args: ['--webhooks-concurrency', '9'],
      read: (c) => c.webhooks.concurrency,
      want: 9,
    },
    '--standby-takeover-seconds': {
      args: ['--standby-takeover-seconds', '45'],
      read: (c) => c.indexer.standbyTakeoverSeconds,
      want: 45,
    },
    '--rpc': {
      args: ['--rpc', '1=https://eth-backup.example'],
      read: (c) => chain1(c)?.rpc,
      want: ['https://eth.example', 'https://eth-backup.example'],
    },
    '--start-block': {
      args: ['--start-block', '1=77'],
      read: (c) => chain1(c)?.startBlock,
      want: 77,
    },
    '--finality-depth': {
      args: ['--finality-depth', '1=9'],
      read: (c) => chain1(c)?.finalityDepth,
      want: 9,
    },
    '--traces': { args: ['--traces', '1=off'], read: (c) => chain1(c)?.traces, want: 'off' },
    '--batch-size': { args: ['--batch-size', '1=7'], read: (c) => chain1(c)?.batchSize, want: 7 },
    '--batch-transactions': {
      args: ['--batch-transactions', '1=300'],
      read: (c) => chain1(c)?.batchTransactions,
      want: 300,
    },
    '--fetch-concurrency': {
      args: ['--fetch-concurrency', '1=2'],
      read: (c) => chain1(c)?.fetchConcurrency,
      want: 2,
    },
    '--rpc-batch-size': {
      args: ['--rpc-batch-size', '1=3'],
      read: (c) => chain1(c)?.rpcBatchSize,
      want: 3,
    },
    '--poll-interval-ms': {
      args: ['--poll-interval-ms', '1=250'],
      read: (c) => chain1(c)?.pollIntervalMs,
      want: 250,
    },
    '--usdc': { args: ['--usdc', `1=${A}`], read: (c) => chain1(c)?.usdc, want: [A] },
    '--wrapped-native': {
      args: ['--wrapped-native', `1=${B}`],
      read: (c) => chain1(c)?.wrappedNative,
      want: B,
    },
    '--dex-factory': {
      args: ['--dex-factory', `1=uniswap_v2:${A}`],
      read: (c) => chain1(c)?.dexFactories,
      want: [{ type: 'uniswap_v2', address: A }],
    },
    '--min-pool-liquidity-usd': {
      args: ['--min-pool-liquidity-usd', '1=5000'],
      read: (c) => chain1(c)?.minPoolLiquidityUsd,
      want: 5000,
    },
    '--genesis': {
      args: ['--genesis', '1=spec/genesis.json'],
      read: (c) => chain1(c)?.genesis,
      want: join(cwd, 'spec/genesis.json'),
    },
    '--unlisted-vaults': {
      args: ['--unlisted-vaults', '1=list'],
      read: (c) => chain1(c)?.unlistedVaults,
      want: 'list',
    },
    '--stablecoin': {
      args: ['--stablecoin', '1=0x00000000000000000000000000000000000000BB'],
      read: (c) => chain1(c)?.stablecoins,
      want: ['0x00000000000000000000000000000000000000bb'],
    },
    '--denied-vault': {
      args: ['--denied-vault', '1=0x00000000000000000000000000000000000000AA'],
      read: (c) => chain1(c)?.deniedVaults,
      want: ['0x00000000000000000000000000000000000000aa'],
    },
    '--defi-protocol': {
      args: [
        '--defi-protocol',
        `1=aave_v3:${A}@16291127`,
        '--defi-protocol',
        `1=erc4626:${B}:MyVaults`,
      ],
      read: (c) => chain1(c)?.defi,
      want: {
        v3Managers: [],
        v4Managers: [],
        v2Protocols: {},
        vaults: [{ address: B, protocol: 'MyVaults' }],
        aaveV3Pools: [A],
        aaveV2Pools: [],
        fromBlocks: { [A]: 16291127 },
        preview: [],
      },
    },
    '--response-profile': {
      args: ['--response-profile', 'sim'],
      read: (c) => c.server.responseProfile,
      want: 'sim',
    },
  }

/** Options of `scry start --help`, as a person reads them. */
async function helpFlags(): Promise<string[]> {
  const out: string[] = []
  const code = await main(['start', '--help'], { out: (t) => out.push(t), err: () => {} })
  expect(code).toBe(0)
  return out
    .join('')
    .split('\n')
    .flatMap((line) => /^\s+(?:-\w, )?(--[a-z0-9-]+)/.exec(line)?.[1] ?? [])
}

async function configOf(args: string[]): Promise<ScryConfig> {
  const parsed = await parseCommandLine(['start', '--rpc', '1=https://eth.example', ...args], {
    out: () => {},
    err: () => {},
  })
  if ('exitCode' in parsed) throw new Error(`command line refused: ${args.join(' ')}`)
  return resolveConfig({ flags: configFlags(parsed.options), env: {}, cwd })
}

test('behavior: every flag `scry start --help` lists reaches the resolved configuration', async () => {
  const flags = await helpFlags()
  expect(flags).toContain('--dex-factory')
  const base = await configOf([])
  for (const flag of flags) {
    if (flag === '--help') continue
    if (flag === '--role') {
      // Not configuration: it picks what the process runs.
      const parsed = await parseCommandLine(['start', '--role', 'api'], { out() {}, err() {} })
      expect('options' in parsed && parseRoles(parsed.options.role as string[])).toEqual(
        new Set(['api']),
      )
      continue
    }
    if (flag === '--chains') {
      // Not configuration: it picks which configured chains this process indexes.
      const parsed = await parseCommandLine(['start', '--chains', '1'], { out() {}, err() {} })
      expect('options' in parsed && parsed.options.chains).toBe('1')
      continue
    }
    const sample = SAMPLES[flag]
    expect(sample, `no sample for ${flag}: add one to SAMPLES`).toBeDefined()
    if (!sample) continue
    const config = await configOf(sample.args)
    expect(sample.read(config), flag).toEqual(sample.want)
    expect(sample.read(base), `${flag} sample equals the default`).not.toEqual(sample.want)
  }
})
