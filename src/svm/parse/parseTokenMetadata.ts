import { createHash } from 'node:crypto'
import { readBorshString, readOptionalPubkey, readPubkey, readU32 } from './readBytes.ts'

/** The SPL token-metadata interface's `TokenMetadata` (Token-2022's metadata extension). */
export type TokenMetadata = {
  updateAuthority: string | undefined
  mint: string
  name: string
  symbol: string
  uri: string
  additionalMetadata: [string, string][]
}

/**
 * The value of a `TokenMetadata` entry: update authority (32, zero = none), mint (32), then
 * Borsh strings name, symbol, uri and a Vec<(String, String)> of additional fields.
 */
export function parseTokenMetadataValue(value: Uint8Array): TokenMetadata | undefined {
  try {
    const name = readBorshString(value, 64)
    const symbol = readBorshString(value, name.end)
    const uri = readBorshString(value, symbol.end)
    const count = readU32(value, uri.end)
    let offset = uri.end + 4
    const additionalMetadata: [string, string][] = []
    for (let i = 0; i < count; i++) {
      const key = readBorshString(value, offset)
      const entry = readBorshString(value, key.end)
      additionalMetadata.push([key.value, entry.value])
      offset = entry.end
    }
    return {
      updateAuthority: readOptionalPubkey(value, 0),
      mint: readPubkey(value, 32),
      name: name.value,
      symbol: symbol.value,
      uri: uri.value,
      additionalMetadata,
    }
  } catch (error) {
    if (error instanceof RangeError) return undefined
    throw error
  }
}

/** First 8 bytes of sha256("spl_token_metadata_interface:token_metadata"). */
const INTERFACE_DISCRIMINATOR = createHash('sha256')
  .update('spl_token_metadata_interface:token_metadata')
  .digest()
  .subarray(0, 8)

/**
 * Metadata kept in its own account by a program implementing the token-metadata interface
 * (what a Token-2022 metadata pointer may point at): 8-byte discriminator TLV entries
 * (discriminator, u32 length, value).
 */
export function parseTokenMetadataAccount(data: Uint8Array): TokenMetadata | undefined {
  let offset = 0
  while (offset + 12 <= data.length) {
    const length = readU32(data, offset + 8)
    const start = offset + 12
    if (start + length > data.length) return undefined
    if (Buffer.from(data.subarray(offset, offset + 8)).equals(INTERFACE_DISCRIMINATOR))
      return parseTokenMetadataValue(data.subarray(start, start + length))
    offset = start + length
  }
  return undefined
}
