import type { CatalogueChain } from '../../chains/catalogue.ts'
import type { ChainConfig } from '../../config/types.ts'
import {
  DEFAULT_V2_PROTOCOL,
  type DefiDeployment,
  defiDeployment,
} from '../../defi/defiDeployments.ts'
import type { Address } from '../../evm/types.ts'

export type DefiFamily =
  | 'uniswap_v2'
  | 'uniswap_v3'
  | 'uniswap_v4'
  | 'aave_v2'
  | 'aave_v3'
  | 'erc4626'
  | 'lido'
export type DefiChainStatus = 'stable' | 'preview'
export type DefiProtocolFamily = {
  family: DefiFamily
  chains: { chain_id: number; chain_name: string; status: DefiChainStatus }[]
  sub_protocols: string[]
}

const FAMILIES: readonly DefiFamily[] = [
  'uniswap_v2',
  'uniswap_v3',
  'uniswap_v4',
  'aave_v2',
  'aave_v3',
  'erc4626',
  'lido',
]

/** One family's entries on one chain: the protocol names and the addresses they go by. */
type FamilyEntry = { name: string; address: Address }

/**
 * The DeFi families served on the enabled chains with DeFi support, each with its chains and
 * the protocol names in use; a family without chains is left out. A family is `preview` on a
 * chain for two reasons, each dropped unless its flag asks for it: the chain is indexed from a
 * `startBlock` after one of the family's entries was deployed (its `fromBlocks`; an entry
 * without one counts as deployed at 0), so holders idle since are missing
 * (`includePreviewChains`), or config marks an entry `@preview` (`includePreviewProtocols`).
 */
export function listDefiProtocols({
  chains,
  catalogue,
  includePreviewChains,
  includePreviewProtocols,
}: {
  chains: readonly ChainConfig[]
  catalogue: readonly CatalogueChain[]
  includePreviewChains: boolean
  includePreviewProtocols: boolean
}): DefiProtocolFamily[] {
  const out: DefiProtocolFamily[] = []
  for (const family of FAMILIES) {
    const entry: DefiProtocolFamily = { family, chains: [], sub_protocols: [] }
    for (const chain of [...chains].sort((a, b) => a.chainId - b.chainId)) {
      const known = catalogue.find((c) => c.chainId === chain.chainId)
      if (!known?.endpoints.defi_positions) continue
      const deployment = defiDeployment(chain)
      if (deployment.off) continue
      const entries = familyEntries(family, chain, deployment)
      if (entries.length === 0) continue
      const fromBlocks = deployment.fromBlocks ?? {}
      const lateStart = entries.some((e) => (fromBlocks[e.address] ?? 0) < chain.startBlock)
      const marked = entries.some((e) => deployment.preview?.includes(e.address))
      if ((lateStart && !includePreviewChains) || (marked && !includePreviewProtocols)) continue
      const status: DefiChainStatus = lateStart || marked ? 'preview' : 'stable'
      entry.chains.push({ chain_id: chain.chainId, chain_name: known.name, status })
      for (const { name } of entries)
        if (!entry.sub_protocols.includes(name)) entry.sub_protocols.push(name)
    }
    if (entry.chains.length > 0) out.push({ ...entry, sub_protocols: entry.sub_protocols.sort() })
  }
  return out
}

function familyEntries(
  family: DefiFamily,
  chain: ChainConfig,
  deployment: DefiDeployment,
): FamilyEntry[] {
  switch (family) {
    case 'uniswap_v2':
      return chain.dexFactories
        .filter((f) => f.type === 'uniswap_v2')
        .map((f) => ({
          name: deployment.v2Protocols[f.address] ?? DEFAULT_V2_PROTOCOL,
          address: f.address,
        }))
    case 'uniswap_v3':
      return deployment.v3Managers.map((m) => ({ name: m.protocol, address: m.address }))
    case 'uniswap_v4':
      return (deployment.v4Managers ?? []).map((m) => ({
        name: m.protocol,
        address: m.positionManager,
      }))
    case 'aave_v2':
      return (deployment.aaveV2Pools ?? []).map((address) => ({ name: 'AaveV2', address }))
    case 'aave_v3':
      return (deployment.aaveV3Pools ?? []).map((address) => ({ name: 'AaveV3', address }))
    case 'erc4626':
      return deployment.vaults.map((v) => ({ name: v.protocol, address: v.address }))
    case 'lido': {
      const lido = deployment.lido
      return lido
        ? [
            { name: 'Lido', address: lido.stEth },
            { name: 'Lido', address: lido.wstEth },
          ]
        : []
    }
    default: {
      const never: never = family
      throw new Error(`Unknown family ${String(never)}.`)
    }
  }
}
