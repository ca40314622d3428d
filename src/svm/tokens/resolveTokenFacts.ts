import { metaplexMetadataAddress } from '../findProgramAddress.ts'
import { parseMetaplexMetadata } from '../parse/parseMetaplexMetadata.ts'
import { type Mint, parseMint } from '../parse/parseMint.ts'
import { parseTokenMetadataAccount, type TokenMetadata } from '../parse/parseTokenMetadata.ts'
import { METAPLEX_METADATA_PROGRAM, TOKEN_PROGRAMS } from '../programIds.ts'
import type { SvmAccount } from '../rpc/createSvmRpc.ts'

/** What Scry knows of a mint: its facts and, when it has any, its metadata. */
export type TokenFacts = {
  mint: string
  programId: string
  decimals: number
  supply: bigint
  mintAuthority: string | null
  name?: string
  symbol?: string
  uri?: string
  /** The Metaplex metadata account the name, symbol and uri came from. */
  metadataAddress?: string
}

/**
 * Where a mint's metadata may live, in order of precedence: the Token-2022 metadata
 * extension in the mint itself, the account its metadata pointer names, then the Metaplex
 * metadata account. Returns the accounts to read besides the mint.
 */
export function metadataCandidates({ mint, parsed }: { mint: string; parsed: Mint }): string[] {
  const candidates: string[] = []
  const pointed = parsed.metadataPointer?.metadataAddress
  if (pointed && pointed !== mint) candidates.push(pointed)
  candidates.push(metaplexMetadataAddress(mint))
  return candidates
}

/**
 * Facts of a mint from its account and the candidate metadata accounts (`metadataCandidates`
 * order; `undefined` where none exists). Pure. `undefined` when the account is not a mint of
 * a token program.
 */
export function resolveTokenFacts({
  address,
  account,
  candidates,
}: {
  address: string
  account: SvmAccount | undefined
  candidates: readonly (SvmAccount | undefined)[]
}): TokenFacts | undefined {
  if (!account || !(TOKEN_PROGRAMS as readonly string[]).includes(account.owner)) return undefined
  const parsed = parseMint(account.data)
  if (!parsed) return undefined
  const facts: TokenFacts = {
    mint: address,
    programId: account.owner,
    decimals: parsed.decimals,
    supply: parsed.supply,
    mintAuthority: parsed.mintAuthority,
  }
  const pointer = parsed.metadataPointer?.metadataAddress
  // The extension in the mint counts when there is no pointer, or the pointer names the mint.
  if (parsed.metadata && (pointer === undefined || pointer === address)) {
    return { ...facts, ...fromTokenMetadata(parsed.metadata) }
  }
  for (const candidate of candidates) {
    if (!candidate) continue
    if (candidate.owner === METAPLEX_METADATA_PROGRAM) {
      const metaplex = parseMetaplexMetadata(candidate.data)
      if (metaplex?.mint === address) {
        const { name, symbol, uri } = metaplex
        return { ...facts, name, symbol, uri, metadataAddress: candidate.address }
      }
      continue
    }
    // A pointer may name another Token-2022 mint holding the extension, or an account of a
    // program implementing the token-metadata interface.
    const metadata =
      ((TOKEN_PROGRAMS as readonly string[]).includes(candidate.owner)
        ? parseMint(candidate.data)?.metadata
        : undefined) ?? parseTokenMetadataAccount(candidate.data)
    if (metadata && metadata.mint === address) return { ...facts, ...fromTokenMetadata(metadata) }
  }
  return facts
}

function fromTokenMetadata(metadata: TokenMetadata) {
  return { name: metadata.name, symbol: metadata.symbol, uri: metadata.uri }
}
