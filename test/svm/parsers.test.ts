import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { decodeBase58, encodeBase58 } from '../../src/svm/base58.ts'
import { metaplexMetadataAddress } from '../../src/svm/findProgramAddress.ts'
import { parseMetaplexMetadata } from '../../src/svm/parse/parseMetaplexMetadata.ts'
import { parseMint } from '../../src/svm/parse/parseMint.ts'
import { parseTokenAccount } from '../../src/svm/parse/parseTokenAccount.ts'
import { readBorshString } from '../../src/svm/parse/readBytes.ts'
import { parseSvmAddress } from '../../src/svm/parseSvmAddress.ts'
import { POOL_LAYOUTS } from '../../src/svm/pools/poolLayouts.ts'
import { poolSpotPrice } from '../../src/svm/pools/poolSpotPrice.ts'
import { parseSvmJson, stringifySvmJson, toBigInt } from '../../src/svm/rpc/svmJson.ts'
import { resolveTokenFacts } from '../../src/svm/tokens/resolveTokenFacts.ts'
import { assembleAccount, type Segment } from './assembleAccount.ts'

const dir = join(import.meta.dirname, 'fixtures')
const rpc = (name: string) => readFileSync(join(dir, 'rpc', `${name}.json`), 'utf8').trim()
const accounts = JSON.parse(readFileSync(join(dir, 'accounts.json'), 'utf8')) as Record<
  string,
  { address: string; owner: string; segments: Segment[] }
>
const account = (name: string) => {
  const fixture = accounts[name]!
  return {
    address: fixture.address,
    owner: fixture.owner,
    lamports: 1n,
    data: assembleAccount(fixture.segments),
  }
}

describe('svmJson', () => {
  test('behavior: node answers round-trip byte for byte', () => {
    for (const name of [
      'getBlock',
      'getTransaction',
      'getTransactionJsonParsed',
      'getAccountInfo',
    ]) {
      // the fixtures are formatted; nodes send them without whitespace
      const text = rpc(name).replace(/("(?:[^"\\]|\\.)*")|\s+/g, (_, string) => string ?? '')
      expect(text.length).toBeGreaterThan(100)
      expect(stringifySvmJson(parseSvmJson(text))).toBe(text)
    }
  })

  test('behavior: u64 values past 2^53 stay exact', () => {
    const info = parseSvmJson(rpc('getAccountInfo')) as any
    expect(info.result.value.rentEpoch).toBe(18446744073709551615n)
    expect(toBigInt(info.result.value.lamports)).toBe(88149640n)
    const tx = parseSvmJson(rpc('getTransaction')) as any
    expect(tx.result.slot).toBe(408672000)
    expect(tx.result.meta.postTokenBalances[1].uiTokenAmount.amount).toBe('18446744073709551615')
  })
})

describe('addresses', () => {
  test('default', () => {
    for (const address of [
      '11111111111111111111111111111111',
      'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      'So11111111111111111111111111111111111111112',
    ]) {
      expect(parseSvmAddress(address)).toBe(address)
      expect(encodeBase58(decodeBase58(address)!)).toBe(address)
    }
  })

  test('error: not an address', () => {
    for (const text of [
      '',
      '0x0000000000000000000000000000000000000000',

      'O'.repeat(44),
      '1'.repeat(31),
    ])
      expect(parseSvmAddress(text)).toBeUndefined()
  })

  test('behavior: Metaplex metadata PDA of USDC', () => {
    expect(metaplexMetadataAddress('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')).toBe(
      accounts.usdcMetaplexMetadata!.address,
    )
  })
})

describe('mints and metadata', () => {
  test('default: SPL mint', () => {
    expect(parseMint(account('usdcMint').data)).toEqual({
      mintAuthority: 'BJE5MMbqXjVwjAF7oxwPYXnTXDyspzZyt4vwenNw5ruG',
      freezeAuthority: '7dGbd2QZcCKcTndnHcTL8q7SMVXAkp688NTQYwrRCrar',
      supply: 9061034828453497n,
      decimals: 6,
    })
  })

  test('behavior: Token-2022 extensions, unknown ones skipped', () => {
    const mint = parseMint(account('pyusdMint').data)
    expect(mint).toMatchObject({
      decimals: 6,
      supply: 1066299871423391n,
      metadataPointer: {
        authority: '22mKJkKjGEQ3rampp5YKaSsaYZ52BUkcnUN6evXGsXzz',
        metadataAddress: '2b1kV6DkPAnxd5ixfnxCpjxmKwqjjaYmCZfHsFu24GXo',
      },
      metadata: {
        mint: '2b1kV6DkPAnxd5ixfnxCpjxmKwqjjaYmCZfHsFu24GXo',
        name: 'PayPal USD',
        symbol: 'PYUSD',
        uri: 'https://token-metadata.paxos.com/pyusd_metadata/prod/solana/pyusd_metadata.json',
        additionalMetadata: [],
      },
    })
  })

  test('behavior: facts from the extension, or from the Metaplex account', () => {
    expect(
      resolveTokenFacts({
        address: accounts.pyusdMint!.address,
        account: account('pyusdMint'),
        candidates: [],
      }),
    ).toMatchObject({
      programId: 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
      name: 'PayPal USD',
      symbol: 'PYUSD',
    })
    const usdc = resolveTokenFacts({
      address: accounts.usdcMint!.address,
      account: account('usdcMint'),
      candidates: [account('usdcMetaplexMetadata')],
    })
    expect(usdc).toEqual({
      mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      programId: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
      decimals: 6,
      supply: 9061034828453497n,
      mintAuthority: 'BJE5MMbqXjVwjAF7oxwPYXnTXDyspzZyt4vwenNw5ruG',
      name: 'USD Coin',
      symbol: 'USDC',
      uri: '',
      metadataAddress: '5x38Kp4hvdomTCnCrAny4UtMUt5rQBdB6px2K1Ui45Wq',
    })
    expect(parseMetaplexMetadata(account('usdcMint').data)).toBeUndefined()
  })

  test('behavior: token account with a u64::MAX amount', () => {
    expect(parseTokenAccount(account('tokenAccount').data)).toEqual({
      mint: 'So11111111111111111111111111111111111111112',
      owner: '5Q544fKrFoe6tsEbD7S8EmxGTJYAKtTVhAW5Q5pge4j1',
      amount: 18446744073709551615n,
    })
  })
})

describe('pools', () => {
  const cases = [
    ['raydiumAmmV4SolUsdc', 'raydium_amm_v4'],
    ['raydiumCpmm', 'raydium_cpmm'],
    ['raydiumClmm', 'raydium_clmm'],
    ['orcaWhirlpoolSolUsdc', 'orca_whirlpool'],
  ] as const

  test('default: each layout, and only its own', () => {
    for (const [name, type] of cases) {
      const { address, data } = account(name)
      const pool = POOL_LAYOUTS[type].parse({ address, data })
      expect(pool).toMatchObject({
        type,
        address,
        mintA: 'So11111111111111111111111111111111111111112',
        mintB: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      })
      for (const [, other] of cases)
        if (other !== type) expect(POOL_LAYOUTS[other].parse({ address, data })).toBeUndefined()
    }
    expect(POOL_LAYOUTS.raydium_amm_v4.parse(account('raydiumAmmV4SolUsdc'))).toMatchObject({
      vaultA: 'DQyrAcCrDXQ7NeoqGgDCZwBvWDcYmFCjSb9JtteuvPpz',
      vaultB: 'HLmqeL62xR1QoZ1HKKbXRrdN1p3phKpxRMb2VVopvBBz',
      state: { kind: 'reserves', owedA: 5000000000n, owedB: 750000000n },
    })
  })

  test('behavior: spot prices', () => {
    const spot = (
      name: (typeof cases)[number][0],
      type: (typeof cases)[number][1],
      a: bigint,
      b: bigint,
    ) =>
      poolSpotPrice({
        pool: POOL_LAYOUTS[type].parse(account(name))!,
        decimalsA: 9,
        decimalsB: 6,
        balanceA: a,
        balanceB: b,
      })
    // reserves less what is owed: (150_750 − 750) USDC / (1_005 − 5) SOL
    expect(
      spot('raydiumAmmV4SolUsdc', 'raydium_amm_v4', 1_005_000_000_000n, 150_750_000_000n),
    ).toBeCloseTo(150, 9)
    // CPMM: fees (protocol + fund) are not liquidity
    expect(spot('raydiumCpmm', 'raydium_cpmm', 2_001_500_000n, 300_300_000n)).toBeCloseTo(150, 9)
    // sqrt_price_x64 7136950736395213348 → (x / 2^64)^2 · 10^3 ≈ 149.69
    for (const [name, type] of [cases[2], cases[3]] as const)
      expect(spot(name, type, 0n, 0n)).toBeCloseTo(149.6878, 3)
    expect(spot('raydiumAmmV4SolUsdc', 'raydium_amm_v4', 5_000_000_000n, 1n)).toBeUndefined()
  })
})

test('behavior: metadata strings lose control characters (PostgreSQL text cannot hold NUL)', () => {
  const text = new TextEncoder().encode('Spam\u0000Coin\u0007')
  const data = new Uint8Array(4 + text.length)
  new DataView(data.buffer).setUint32(0, text.length, true)
  data.set(text, 4)
  expect(readBorshString(data, 0)).toEqual({ value: 'SpamCoin', end: data.length })
})
