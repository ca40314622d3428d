import { decodeBase58 } from '../base58.ts'

/**
 * Byte layouts for accounts planted with `surfnet_setAccount` (pools, vaults, metadata): the
 * same layouts the programs write (see the parsers in `src/svm/parse` and `src/svm/pools`).
 */

export function pubkeyBytes(address: string): Buffer {
  const bytes = decodeBase58(address)
  if (bytes?.length !== 32) throw new TypeError(`not an address: ${address}`)
  return Buffer.from(bytes)
}

export function writePubkey(data: Buffer, offset: number, address: string): void {
  pubkeyBytes(address).copy(data, offset)
}

function borshString(text: string, padTo = 0): Buffer {
  const bytes = Buffer.from(text, 'utf8')
  const padded = Buffer.alloc(Math.max(bytes.length, padTo))
  bytes.copy(padded)
  const length = Buffer.alloc(4)
  length.writeUInt32LE(padded.length)
  return Buffer.concat([length, padded])
}

/** SPL mint (82 bytes), initialized. */
export function encodeMint({
  mintAuthority,
  supply,
  decimals,
}: {
  mintAuthority: string | null
  supply: bigint
  decimals: number
}): Buffer {
  const data = Buffer.alloc(82)
  if (mintAuthority) {
    data.writeUInt32LE(1, 0)
    writePubkey(data, 4, mintAuthority)
  }
  data.writeBigUInt64LE(supply, 36)
  data.writeUInt8(decimals, 44)
  data.writeUInt8(1, 45)
  return data
}

/** SPL token account (165 bytes), initialized. */
export function encodeTokenAccount({
  mint,
  owner,
  amount,
}: {
  mint: string
  owner: string
  amount: bigint
}): Buffer {
  const data = Buffer.alloc(165)
  writePubkey(data, 0, mint)
  writePubkey(data, 32, owner)
  data.writeBigUInt64LE(amount, 64)
  data.writeUInt8(1, 108) // state: initialized
  return data
}

/** Metaplex `MetadataV1` with the program's padding (name 32, symbol 10, uri 200). */
export function encodeMetaplexMetadata({
  updateAuthority,
  mint,
  name,
  symbol,
  uri,
}: {
  updateAuthority: string
  mint: string
  name: string
  symbol: string
  uri: string
}): Buffer {
  const head = Buffer.alloc(65)
  head.writeUInt8(4, 0)
  writePubkey(head, 1, updateAuthority)
  writePubkey(head, 33, mint)
  // seller_fee_basis_points u16, creators None, primary_sale_happened, is_mutable
  const tail = Buffer.from([0, 0, 0, 0, 1])
  return Buffer.concat([
    head,
    borshString(name, 32),
    borshString(symbol, 10),
    borshString(uri, 200),
    tail,
  ])
}

/** `TokenMetadata` value (token-metadata interface). */
export function encodeTokenMetadataValue({
  updateAuthority,
  mint,
  name,
  symbol,
  uri,
}: {
  updateAuthority: string
  mint: string
  name: string
  symbol: string
  uri: string
}): Buffer {
  const keys = Buffer.alloc(64)
  writePubkey(keys, 0, updateAuthority)
  writePubkey(keys, 32, mint)
  return Buffer.concat([
    keys,
    borshString(name),
    borshString(symbol),
    borshString(uri),
    Buffer.alloc(4), // no additional metadata
  ])
}
