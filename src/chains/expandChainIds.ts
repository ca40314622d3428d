import { NonRetryableError } from '../internal/errors.ts'
import { type CatalogueChain, CHAIN_TAGS, type ChainEndpoint, type ChainTag } from './catalogue.ts'

/** A `chain_ids` value that cannot be read: the API answers 400 `BAD_REQUEST`. */
export class InvalidChainIdsError extends NonRetryableError {
  override name = 'InvalidChainIdsError'
  /** The offending item of the list, as given. */
  readonly token: string

  constructor({ token, reason }: { token: string; reason: string }) {
    super(`Invalid chain_ids: ${reason}`, { code: 'BAD_REQUEST' })
    this.token = token
  }
}

export type ExpandChainIdsOptions = {
  /** The raw `chain_ids` value; `undefined` or blank means `default`. */
  input: string | undefined
  catalogue: readonly CatalogueChain[]
  /** Chain ids this instance indexes (an RPC source is configured). */
  enabled: ReadonlySet<number>
  endpoint: ChainEndpoint
}

export type ExpandedChainIds = {
  /** Served chains, ascending, without duplicates. */
  chainIds: number[]
  /** Numeric ids that were asked for but are not served here (for the warning), ascending. */
  unsupported: number[]
}

const NUMERIC = /^[0-9]+$/

/**
 * Reads a `chain_ids` list (spec/decisions.md "Common rules"): numeric ids and tags, OR-ed,
 * duplicates collapsed. Tags expand to the enabled chains with that tag that support the
 * endpoint; a numeric id that is not served lands in `unsupported` instead of failing the
 * request. Chain names and unknown words throw `InvalidChainIdsError`.
 */
export function expandChainIds({
  input,
  catalogue,
  enabled,
  endpoint,
}: ExpandChainIdsOptions): ExpandedChainIds {
  const tokens = (input ?? '')
    .split(',')
    .map((token) => token.trim())
    .filter((token) => token !== '')
  if (tokens.length === 0) tokens.push('default')

  const byId = new Map(catalogue.map((chain) => [chain.chainId, chain]))
  const served = (chain: CatalogueChain | undefined): chain is CatalogueChain =>
    chain !== undefined && enabled.has(chain.chainId) && chain.endpoints[endpoint]

  const chainIds = new Set<number>()
  const unsupported = new Set<number>()
  for (const token of tokens) {
    if (NUMERIC.test(token)) {
      const chainId = Number(token)
      if (!Number.isSafeInteger(chainId))
        throw new InvalidChainIdsError({ token, reason: `"${token}" is not a valid chain id` })
      if (served(byId.get(chainId))) chainIds.add(chainId)
      else unsupported.add(chainId)
      continue
    }
    const tag = token.toLowerCase()
    if (isTag(tag)) {
      for (const chain of catalogue)
        if (chain.tags.includes(tag) && served(chain)) chainIds.add(chain.chainId)
      continue
    }
    const named = catalogue.find((chain) => chain.name === tag)
    throw new InvalidChainIdsError({
      token,
      reason: named
        ? `"${token}" is a chain name; use its numeric id ${named.chainId}`
        : `"${token}" is neither a numeric chain id nor a tag (${CHAIN_TAGS.join(', ')})`,
    })
  }
  return { chainIds: sorted(chainIds), unsupported: sorted(unsupported) }
}

function isTag(word: string): word is ChainTag {
  return (CHAIN_TAGS as readonly string[]).includes(word)
}

function sorted(ids: Set<number>): number[] {
  return [...ids].sort((a, b) => a - b)
}
