import { readBorshString, readPubkey, readU8 } from './readBytes.ts'

export type MetaplexMetadata = { mint: string; name: string; symbol: string; uri: string }

const KEY_METADATA_V1 = 4

/**
 * A Metaplex Token Metadata account: key u8 (4 = MetadataV1), update authority (32), mint
 * (32), then Borsh strings name, symbol, uri, which the program pads with NUL bytes (to 32,
 * 10 and 200 bytes); the padding is dropped.
 */
export function parseMetaplexMetadata(data: Uint8Array): MetaplexMetadata | undefined {
  try {
    if (readU8(data, 0) !== KEY_METADATA_V1) return undefined
    const name = readBorshString(data, 65)
    const symbol = readBorshString(data, name.end)
    const uri = readBorshString(data, symbol.end)
    return {
      mint: readPubkey(data, 33),
      name: name.value,
      symbol: symbol.value,
      uri: uri.value,
    }
  } catch (error) {
    if (error instanceof RangeError) return undefined
    throw error
  }
}
