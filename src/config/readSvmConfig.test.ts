import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { ConfigError } from '../internal/errors.ts'
import { resolveConfig } from './resolveConfig.ts'

let cwd: string
beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'scry-svm-config-'))
})
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true })
})

test('args: --rpc solana=… beside EVM chains, env for eclipse, mainnet defaults', async () => {
  const config = await resolveConfig({
    cwd,
    flags: {
      rpc: [
        'solana=https://sol-a.internal',
        '1=https://eth.internal',
        'solana=https://sol-b.internal',
      ],
    },
    env: {
      SCRY_RPC_ECLIPSE: 'https://eclipse.internal',
      SCRY_USDC_MINT_ECLIPSE: '11111111111111111111111111111111',
    },
  })
  expect(config.chains.map((c) => [c.chainId, c.rpc])).toEqual([[1, ['https://eth.internal']]])
  expect(config.svm).toMatchInlineSnapshot(`
    [
      {
        "dexPrograms": {
          "orca_whirlpool": "whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc",
          "raydium_amm_v4": "675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8",
          "raydium_clmm": "CAMMCzo5YL8w4VFF8KVHrK22GGUsp5VTaW7grrKgrWqK",
          "raydium_cpmm": "CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C",
        },
        "name": "solana",
        "rpc": [
          "https://sol-a.internal",
          "https://sol-b.internal",
        ],
        "rpcBatchSize": 50,
        "usdcMint": "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
      },
      {
        "dexPrograms": {
          "orca_whirlpool": "whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc",
        },
        "name": "eclipse",
        "rpc": [
          "https://eclipse.internal",
        ],
        "rpcBatchSize": 50,
        "usdcMint": "11111111111111111111111111111111",
      },
    ]
  `)
})

test('args: config file svm section, flags win over it', async () => {
  await writeFile(
    join(cwd, 'scry.config.json'),
    JSON.stringify({
      svm: {
        solana: {
          rpc: 'https://file.internal',
          dexPrograms: { orca_whirlpool: 'whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc' },
          rpcBatchSize: 1,
        },
      },
    }),
  )
  const fromFile = await resolveConfig({ cwd, env: {} })
  expect(fromFile.svm).toEqual([
    {
      name: 'solana',
      rpc: ['https://file.internal'],
      usdcMint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      dexPrograms: { orca_whirlpool: 'whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc' },
      rpcBatchSize: 1,
    },
  ])
  const flagged = await resolveConfig({
    cwd,
    env: {},
    flags: { rpc: ['solana=http://127.0.0.1:8899'] },
  })
  expect(flagged.svm[0]?.rpc).toEqual(['http://127.0.0.1:8899'])
})

test('error: bad SVM settings are reported with the rest', async () => {
  await writeFile(
    join(cwd, 'scry.config.json'),
    JSON.stringify({
      svm: {
        solana: { rpc: 'ftp://x', usdcMint: 'nope', dexPrograms: { uniswap: 'x' }, extra: 1 },
        bitcoin: {},
      },
    }),
  )
  let message = ''
  try {
    await resolveConfig({
      cwd,
      env: { SCRY_RPC_ECLIPSE: 'not a url' },
      flags: { rpc: ['solana='] },
    })
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    message = (error as Error).message.replaceAll(cwd, '<cwd>')
  }
  expect(message).toMatchInlineSnapshot(`
    "Invalid configuration:
      - svm.solana.extra: unknown key (expected one of rpc, usdcMint, dexPrograms, rpcBatchSize)
      - svm.solana.rpc: expected http(s) or ws(s) URLs, got ftp://x
      - svm.solana.usdcMint: expected a base58 address, got "nope"
      - svm.solana.dexPrograms.uniswap: unknown pool type (expected raydium_amm_v4, raydium_cpmm, raydium_clmm or orca_whirlpool)
      - svm.bitcoin: unknown key (expected one of solana, eclipse)
      - SCRY_RPC_ECLIPSE: expected http(s) or ws(s) URLs, got "not a url"
      - --rpc (solana): expected http(s) or ws(s) URLs, got nothing

    Details: config file: <cwd>/scry.config.json"
  `)
})
