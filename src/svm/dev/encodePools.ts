import { anchorDiscriminator } from '../pools/anchorDiscriminator.ts'
import { writePubkey } from './encodeAccounts.ts'

/** Pool accounts in the DEX programs' layouts, for planting (see `src/svm/pools`). */

type PoolKeys = { mintA: string; mintB: string; vaultA: string; vaultB: string }

function writeU128(data: Buffer, offset: number, value: bigint) {
  data.writeBigUInt64LE(value & ((1n << 64n) - 1n), offset)
  data.writeBigUInt64LE(value >> 64n, offset + 8)
}

/** Raydium AMM v4 `AmmInfo`; status 6 (swap only). */
export function encodeRaydiumAmmV4({
  mintA,
  mintB,
  vaultA,
  vaultB,
  decimalsA,
  decimalsB,
}: PoolKeys & { decimalsA: number; decimalsB: number }): Buffer {
  const data = Buffer.alloc(752)
  data.writeBigUInt64LE(6n, 0) // status
  data.writeBigUInt64LE(BigInt(decimalsA), 32) // coin_decimals
  data.writeBigUInt64LE(BigInt(decimalsB), 40) // pc_decimals
  writePubkey(data, 336, vaultA)
  writePubkey(data, 368, vaultB)
  writePubkey(data, 400, mintA)
  writePubkey(data, 432, mintB)
  return data
}

/** Raydium CPMM `PoolState`, no fees owed. */
export function encodeRaydiumCpmm({
  mintA,
  mintB,
  vaultA,
  vaultB,
  decimalsA,
  decimalsB,
}: PoolKeys & { decimalsA: number; decimalsB: number }): Buffer {
  const data = Buffer.alloc(637)
  Buffer.from(anchorDiscriminator('PoolState')).copy(data, 0)
  writePubkey(data, 72, vaultA)
  writePubkey(data, 104, vaultB)
  writePubkey(data, 168, mintA)
  writePubkey(data, 200, mintB)
  data.writeUInt8(decimalsA, 331)
  data.writeUInt8(decimalsB, 332)
  return data
}

/** Raydium CLMM `PoolState` at `sqrtPriceX64`. */
export function encodeRaydiumClmm({
  mintA,
  mintB,
  vaultA,
  vaultB,
  decimalsA,
  decimalsB,
  sqrtPriceX64,
  liquidity,
}: PoolKeys & {
  decimalsA: number
  decimalsB: number
  sqrtPriceX64: bigint
  liquidity: bigint
}): Buffer {
  const data = Buffer.alloc(1544)
  Buffer.from(anchorDiscriminator('PoolState')).copy(data, 0)
  writePubkey(data, 73, mintA)
  writePubkey(data, 105, mintB)
  writePubkey(data, 137, vaultA)
  writePubkey(data, 169, vaultB)
  data.writeUInt8(decimalsA, 233)
  data.writeUInt8(decimalsB, 234)
  data.writeUInt16LE(10, 235)
  writeU128(data, 237, liquidity)
  writeU128(data, 253, sqrtPriceX64)
  return data
}

/** Orca `Whirlpool` at `sqrtPriceX64`. */
export function encodeOrcaWhirlpool({
  mintA,
  mintB,
  vaultA,
  vaultB,
  sqrtPriceX64,
  liquidity,
}: PoolKeys & { sqrtPriceX64: bigint; liquidity: bigint }): Buffer {
  const data = Buffer.alloc(653)
  Buffer.from(anchorDiscriminator('Whirlpool')).copy(data, 0)
  data.writeUInt16LE(64, 41)
  data.writeUInt16LE(3000, 45)
  writeU128(data, 49, liquidity)
  writeU128(data, 65, sqrtPriceX64)
  writePubkey(data, 101, mintA)
  writePubkey(data, 133, vaultA)
  writePubkey(data, 181, mintB)
  writePubkey(data, 213, vaultB)
  return data
}

/** sqrt(price of one base unit of A in base units of B) as Q64.64. */
export function sqrtPriceX64({
  priceAInB,
  decimalsA,
  decimalsB,
}: {
  priceAInB: number
  decimalsA: number
  decimalsB: number
}): bigint {
  const raw = priceAInB * 10 ** (decimalsB - decimalsA)
  // 2^64 · sqrt(raw), in two steps to keep double precision
  return BigInt(Math.round(Math.sqrt(raw) * 2 ** 32)) << 32n
}
