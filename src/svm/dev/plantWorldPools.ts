import { Keypair } from '@solana/web3.js'
import type { PoolType } from '../pools/poolTypes.ts'
import { NATIVE_MINT, TOKEN_PROGRAM } from '../programIds.ts'
import type { SvmChainName } from '../svmDefaults.ts'
import { encodeTokenAccount } from './encodeAccounts.ts'
import {
  encodeOrcaWhirlpool,
  encodeRaydiumAmmV4,
  encodeRaydiumClmm,
  encodeRaydiumCpmm,
  sqrtPriceX64,
} from './encodePools.ts'
import { plantAccount } from './plantAccount.ts'

export type WorldMint = {
  address: string
  label: string
  decimals: number
  programId: string
  /** What the metadata says, where the world gave the mint any. */
  metadata?: { name: string; symbol: string; uri: string; metadataAddress?: string }
}

export type WorldPool = {
  type: PoolType
  address: string
  mintA: string
  mintB: string
  /** The pool's own spot price of whole A in whole B. */
  priceAInB: number
  /** Whole units in the vaults. */
  reserveA: number
  reserveB: number
}

export type PoolPlan = {
  type: PoolType
  a: string
  b: string
  decimalsA: number
  decimalsB: number
  priceAInB: number
  /** Whole units in the vaults. */
  reserveA: number
  reserveB: number
}

/** Pools with known prices; each chain plants those its DEX programs allow. */
export async function plantPools({
  rpcUrl,
  chain,
  dexPrograms,
  usdcMint,
  mints,
}: {
  rpcUrl: string
  chain: SvmChainName
  dexPrograms: Partial<Record<PoolType, string>>
  usdcMint: string
  mints: WorldMint[]
}): Promise<WorldPool[]> {
  const by = (label: string) => mints.find((m) => m.label === label)!
  const dtk = by('DTK')
  const dext = by('DEXT')
  const dptr = by('DPTR')
  const plans: PoolPlan[] =
    chain === 'solana'
      ? [
          // native SOL = 150 USDC
          {
            type: 'raydium_amm_v4',
            a: NATIVE_MINT,
            b: usdcMint,
            decimalsA: 9,
            decimalsB: 6,
            priceAInB: 150,
            reserveA: 1_000,
            reserveB: 150_000,
          },
          // DTK = 0.02 SOL = 3 USD, deep
          {
            type: 'orca_whirlpool',
            a: dtk.address,
            b: NATIVE_MINT,
            decimalsA: 6,
            decimalsB: 9,
            priceAInB: 0.02,
            reserveA: 1_000_000,
            reserveB: 20_000,
          },
          // DTK = 3.5 USD, shallow: the route must not use it
          {
            type: 'raydium_cpmm',
            a: dtk.address,
            b: usdcMint,
            decimalsA: 6,
            decimalsB: 6,
            priceAInB: 3.5,
            reserveA: 100,
            reserveB: 350,
          },
          // DEXT = 0.5 USD
          {
            type: 'raydium_cpmm',
            a: dext.address,
            b: usdcMint,
            decimalsA: 9,
            decimalsB: 6,
            priceAInB: 0.5,
            reserveA: 500_000,
            reserveB: 250_000,
          },
          // DPTR = 2.5 USD, the token on the B side
          {
            type: 'raydium_clmm',
            a: usdcMint,
            b: dptr.address,
            decimalsA: 6,
            decimalsB: 6,
            priceAInB: 0.4,
            reserveA: 100_000,
            reserveB: 250_000,
          },
        ]
      : [
          // native ETH = 3000 USDC
          {
            type: 'orca_whirlpool',
            a: NATIVE_MINT,
            b: usdcMint,
            decimalsA: 9,
            decimalsB: 6,
            priceAInB: 3000,
            reserveA: 100,
            reserveB: 300_000,
          },
          // DTK = 0.001 ETH = 3 USD
          {
            type: 'orca_whirlpool',
            a: dtk.address,
            b: NATIVE_MINT,
            decimalsA: 6,
            decimalsB: 9,
            priceAInB: 0.001,
            reserveA: 100_000,
            reserveB: 100,
          },
        ]
  const pools: WorldPool[] = []
  for (const plan of plans) {
    const programId = dexPrograms[plan.type]
    if (!programId) continue
    const address = Keypair.generate().publicKey.toBase58()
    const vaultA = Keypair.generate().publicKey.toBase58()
    const vaultB = Keypair.generate().publicKey.toBase58()
    const authority = Keypair.generate().publicKey.toBase58()
    const programOf = (mint: string) =>
      mints.find((m) => m.address === mint)?.programId ?? TOKEN_PROGRAM
    const units = (whole: number, decimals: number) => BigInt(Math.round(whole * 10 ** decimals))
    await plantAccount({
      rpcUrl,
      address: vaultA,
      owner: programOf(plan.a),
      data: encodeTokenAccount({
        mint: plan.a,
        owner: authority,
        amount: units(plan.reserveA, plan.decimalsA),
      }),
    })
    await plantAccount({
      rpcUrl,
      address: vaultB,
      owner: programOf(plan.b),
      data: encodeTokenAccount({
        mint: plan.b,
        owner: authority,
        amount: units(plan.reserveB, plan.decimalsB),
      }),
    })
    const keys = { mintA: plan.a, mintB: plan.b, vaultA, vaultB }
    // As if all of the vaults were one full-range position: L = √(reserve A · reserve B).
    const liquidity = BigInt(
      Math.floor(
        Math.sqrt(
          Number(units(plan.reserveA, plan.decimalsA)) *
            Number(units(plan.reserveB, plan.decimalsB)),
        ),
      ),
    )
    const sqrt = sqrtPriceX64({
      priceAInB: plan.priceAInB,
      decimalsA: plan.decimalsA,
      decimalsB: plan.decimalsB,
    })
    const data =
      plan.type === 'raydium_amm_v4'
        ? encodeRaydiumAmmV4({ ...keys, decimalsA: plan.decimalsA, decimalsB: plan.decimalsB })
        : plan.type === 'raydium_cpmm'
          ? encodeRaydiumCpmm({ ...keys, decimalsA: plan.decimalsA, decimalsB: plan.decimalsB })
          : plan.type === 'raydium_clmm'
            ? encodeRaydiumClmm({
                ...keys,
                decimalsA: plan.decimalsA,
                decimalsB: plan.decimalsB,
                sqrtPriceX64: sqrt,
                liquidity,
              })
            : encodeOrcaWhirlpool({ ...keys, sqrtPriceX64: sqrt, liquidity })
    await plantAccount({ rpcUrl, address, owner: programId, data })
    pools.push({
      type: plan.type,
      address,
      mintA: plan.a,
      mintB: plan.b,
      priceAInB: plan.priceAInB,
      reserveA: plan.reserveA,
      reserveB: plan.reserveB,
    })
  }
  return pools
}

/**
 * USD prices the planted pools imply: USDC = 1; a token's price through its pools whose other
 * side is USDC or priced that way, the pool with the most USD in its vaults winning.
 */
export function expectPrices({
  pools,
  usdcMint,
}: {
  pools: WorldPool[]
  usdcMint: string
}): Map<string, { priceUsd: number; poolAddress: string; poolType: PoolType }> {
  const out = new Map<string, { priceUsd: number; poolAddress: string; poolType: PoolType }>()
  // Planted in dependency order: each pool's quote side is priced by an earlier pool (or USDC).
  const priceOf = (mint: string) => (mint === usdcMint ? 1 : out.get(mint)?.priceUsd)
  const best = new Map<string, number>()
  for (const pool of pools) {
    const [mint, priceUsd] =
      priceOf(pool.mintB) !== undefined && pool.mintA !== usdcMint
        ? [pool.mintA, pool.priceAInB * priceOf(pool.mintB)!]
        : [pool.mintB, priceOf(pool.mintA)! / pool.priceAInB]
    const [priceA, priceB] =
      mint === pool.mintA ? [priceUsd, priceOf(pool.mintB)!] : [priceOf(pool.mintA)!, priceUsd]
    const liquidity = pool.reserveA * priceA + pool.reserveB * priceB
    if ((best.get(mint) ?? -1) >= liquidity) continue
    best.set(mint, liquidity)
    out.set(mint, { priceUsd, poolAddress: pool.address, poolType: pool.type })
  }
  return out
}
