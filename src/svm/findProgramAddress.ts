import { createHash } from 'node:crypto'
import { ed25519 } from '@noble/curves/ed25519'
import { decodeBase58, encodeBase58 } from './base58.ts'
import { METAPLEX_METADATA_PROGRAM } from './programIds.ts'

/** The program-derived address of `seeds` under `programId` (highest bump off the curve). */
export function findProgramAddress({
  seeds,
  programId,
}: {
  seeds: readonly Uint8Array[]
  programId: string
}): string {
  const program = decodeBase58(programId)
  if (program?.length !== 32) throw new TypeError('programId is not an address')
  for (let bump = 255; bump >= 0; bump--) {
    const hash = createHash('sha256')
    for (const seed of seeds) hash.update(seed)
    hash.update(Uint8Array.of(bump)).update(program).update('ProgramDerivedAddress')
    const candidate = new Uint8Array(hash.digest())
    if (!isOnCurve(candidate)) return encodeBase58(candidate)
  }
  throw new Error('no program-derived address for these seeds')
}

function isOnCurve(bytes: Uint8Array): boolean {
  try {
    ed25519.ExtendedPoint.fromHex(bytes)
    return true
  } catch {
    return false
  }
}

/** Address of a mint's Metaplex metadata account: seeds "metadata", program id, mint. */
export function metaplexMetadataAddress(mint: string): string {
  return findProgramAddress({
    seeds: [
      new TextEncoder().encode('metadata'),
      decodeBase58(METAPLEX_METADATA_PROGRAM)!,
      decodeBase58(mint)!,
    ],
    programId: METAPLEX_METADATA_PROGRAM,
  })
}
