import { ConfigError } from '../internal/errors.ts'
import {
  type CatalogueChain,
  CHAIN_CATALOGUE,
  type ChainEndpoints,
  type ChainTag,
} from './catalogue.ts'

/**
 * An operator's catalogue entry (config file `catalogue`). For a chain already in the
 * catalogue the given fields replace the built-in ones (`endpoints` key by key); a new chain
 * needs a `name`, has no tags by default, and supports every endpoint except
 * `defi_positions` (which needs protocol registries Scry only ships for a few chains).
 */
export type CatalogueOverride = {
  chainId: number
  name?: string
  tags?: ChainTag[]
  endpoints?: Partial<ChainEndpoints>
}

const NEW_CHAIN_ENDPOINTS: ChainEndpoints = {
  balances: true,
  activity: true,
  transactions: true,
  collectibles: true,
  token_info: true,
  token_holders: true,
  defi_positions: false,
}

/** Built-in catalogue with the operator's additions and overrides applied, by chain id. */
export function resolveCatalogue(overrides: readonly CatalogueOverride[] = []): CatalogueChain[] {
  const problems = findCatalogueProblems(overrides)
  if (problems.length > 0)
    throw new ConfigError(`Invalid chain catalogue:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
  return mergeCatalogue(overrides)
}

/**
 * Problems that make `overrides` unusable, each prefixed with its config path
 * (`catalogue[2].name: …`). Shape is assumed valid (checked by the config loader).
 */
export function findCatalogueProblems(overrides: readonly CatalogueOverride[]): string[] {
  const problems: string[] = []
  const builtIn = new Set(CHAIN_CATALOGUE.map((chain) => chain.chainId))
  const seen = new Map<number, number>()
  overrides.forEach((override, index) => {
    const earlier = seen.get(override.chainId)
    if (earlier !== undefined)
      problems.push(
        `catalogue[${index}].chainId: chain ${override.chainId} is already listed at catalogue[${earlier}]`,
      )
    seen.set(override.chainId, index)
    if (!builtIn.has(override.chainId) && override.name === undefined)
      problems.push(
        `catalogue[${index}].name: chain ${override.chainId} is not built in, so it needs a name`,
      )
  })
  if (problems.length > 0) return problems

  const merged = mergeCatalogue(overrides)
  overrides.forEach((override, index) => {
    if (override.name === undefined) return
    const other = merged.find((c) => c.name === override.name && c.chainId !== override.chainId)
    if (other)
      problems.push(
        `catalogue[${index}].name: "${override.name}" is already the name of chain ${other.chainId}`,
      )
  })
  return problems
}

function mergeCatalogue(overrides: readonly CatalogueOverride[]): CatalogueChain[] {
  const chains = new Map<number, CatalogueChain>(
    CHAIN_CATALOGUE.map((chain) => [
      chain.chainId,
      { ...chain, tags: [...chain.tags], endpoints: { ...chain.endpoints } },
    ]),
  )
  for (const override of overrides) {
    const current = chains.get(override.chainId)
    chains.set(override.chainId, {
      chainId: override.chainId,
      name: override.name ?? current?.name ?? `chain_${override.chainId}`,
      tags: [...(override.tags ?? current?.tags ?? [])],
      endpoints: { ...(current?.endpoints ?? NEW_CHAIN_ENDPOINTS), ...override.endpoints },
    })
  }
  return [...chains.values()].sort((a, b) => a.chainId - b.chainId)
}
