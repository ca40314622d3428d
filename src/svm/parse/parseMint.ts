import { parseTokenMetadataValue, type TokenMetadata } from './parseTokenMetadata.ts'
import { readOptionalPubkey, readPubkey, readU8, readU16, readU32, readU64 } from './readBytes.ts'

export type Mint = {
  decimals: number
  supply: bigint
  /** null when the supply is fixed. */
  mintAuthority: string | null
  freezeAuthority: string | null
  /** Token-2022 `MetadataPointer` extension: where this mint's metadata lives. */
  metadataPointer?: { authority: string | undefined; metadataAddress: string | undefined }
  /** Token-2022 `TokenMetadata` extension stored in the mint itself. */
  metadata?: TokenMetadata
}

const MINT_SIZE = 82
/** Token-2022 pads a mint with extensions to the token-account size, then an account type. */
const ACCOUNT_TYPE_OFFSET = 165
const ACCOUNT_TYPE_MINT = 1
const EXTENSION_METADATA_POINTER = 18
const EXTENSION_TOKEN_METADATA = 19

/**
 * An SPL Token or Token-2022 mint. Base layout (82 bytes): mint authority COption<Pubkey>
 * (u32 tag + 32), supply u64 @36, decimals u8 @44, initialized u8 @45, freeze authority
 * COption @46. Token-2022 extensions: account type u8 @165, then TLV entries (u16 type, u16
 * length, value) from 166. `undefined` for data that is not an initialized mint.
 */
export function parseMint(data: Uint8Array): Mint | undefined {
  if (data.length < MINT_SIZE || readU8(data, 45) !== 1) return undefined
  const mint: Mint = {
    mintAuthority: readU32(data, 0) === 1 ? readPubkey(data, 4) : null,
    supply: readU64(data, 36),
    decimals: readU8(data, 44),
    freezeAuthority: readU32(data, 46) === 1 ? readPubkey(data, 50) : null,
  }
  if (data.length <= ACCOUNT_TYPE_OFFSET || readU8(data, ACCOUNT_TYPE_OFFSET) !== ACCOUNT_TYPE_MINT)
    return mint
  let offset = ACCOUNT_TYPE_OFFSET + 1
  while (offset + 4 <= data.length) {
    const type = readU16(data, offset)
    const length = readU16(data, offset + 2)
    const start = offset + 4
    const end = start + length
    if (type === 0 || end > data.length) break
    const value = data.subarray(start, end)
    if (type === EXTENSION_METADATA_POINTER && length >= 64) {
      mint.metadataPointer = {
        authority: readOptionalPubkey(value, 0),
        metadataAddress: readOptionalPubkey(value, 32),
      }
    } else if (type === EXTENSION_TOKEN_METADATA) {
      const metadata = parseTokenMetadataValue(value)
      if (metadata) mint.metadata = metadata
    }
    offset = end
  }
  return mint
}
