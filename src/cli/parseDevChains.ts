import type { CatalogueChain } from '../chains/catalogue.ts'
import { InvalidConfigError } from '../config/InvalidConfigError.ts'

/** Reads `scry dev --chains 1,8453,42161`: catalogue chain ids, duplicates dropped. */
export function parseDevChains({
  text,
  catalogue,
}: {
  text: string | undefined
  catalogue: readonly CatalogueChain[]
}): number[] | undefined {
  if (text === undefined) return undefined
  const issues: string[] = []
  const chainIds = new Set<number>()
  const items = text.split(',').map((item) => item.trim())
  for (const item of items) {
    const chainId = Number(item)
    if (!/^[0-9]+$/.test(item) || !Number.isSafeInteger(chainId)) {
      const named = catalogue.find((chain) => chain.name === item)
      issues.push(
        named
          ? `--chains: "${item}" is a chain name; use its id ${named.chainId}`
          : `--chains: expected comma-separated chain ids (e.g. 1,8453), got ${JSON.stringify(item)}`,
      )
    } else if (!catalogue.some((chain) => chain.chainId === chainId))
      issues.push(
        `--chains: chain ${chainId} is not in the catalogue; add it to "catalogue" in the config file`,
      )
    else chainIds.add(chainId)
  }
  if (issues.length > 0) throw new InvalidConfigError({ issues })
  return [...chainIds]
}
