import type { CatalogueChain } from '../../chains/catalogue.ts'
import type { ChainConfig } from '../../config/types.ts'
import { DEFAULT_V2_PROTOCOL, defiDeployment } from '../../defi/defiDeployments.ts'

export type DefiFamily = 'uniswap_v2' | 'uniswap_v3' | 'uniswap_v4' | 'aave_v3' | 'erc4626' | 'lido'
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
  'aave_v3',
  'erc4626',
  'lido',
]

/**
 * The DeFi families served on the enabled chains with DeFi support, each with its chains and
 * the protocol names in use. A chain is `preview` when it is indexed from a `startBlock`
 * after 0 (holders idle since before it are missing), and left out unless
 * `includePreviewChains`; a family without chains is left out.
 */
export function listDefiProtocols({
  chains,
  catalogue,
  includePreviewChains,
}: {
  chains: readonly ChainConfig[]
  catalogue: readonly CatalogueChain[]
  includePreviewChains: boolean
}): DefiProtocolFamily[] {
  const out: DefiProtocolFamily[] = []
  for (const family of FAMILIES) {
    const entry: DefiProtocolFamily = { family, chains: [], sub_protocols: [] }
    for (const chain of [...chains].sort((a, b) => a.chainId - b.chainId)) {
      const known = catalogue.find((c) => c.chainId === chain.chainId)
      if (!known?.endpoints.defi_positions) continue
      const names = protocolNames(family, chain)
      if (names.length === 0) continue
      const status: DefiChainStatus = chain.startBlock > 0 ? 'preview' : 'stable'
      if (status === 'preview' && !includePreviewChains) continue
      entry.chains.push({ chain_id: chain.chainId, chain_name: known.name, status })
      for (const name of names)
        if (!entry.sub_protocols.includes(name)) entry.sub_protocols.push(name)
    }
    if (entry.chains.length > 0) out.push({ ...entry, sub_protocols: entry.sub_protocols.sort() })
  }
  return out
}

function protocolNames(family: DefiFamily, chain: ChainConfig): string[] {
  const deployment = defiDeployment(chain)
  switch (family) {
    case 'uniswap_v2':
      return chain.dexFactories
        .filter((f) => f.type === 'uniswap_v2')
        .map((f) => deployment.v2Protocols[f.address] ?? DEFAULT_V2_PROTOCOL)
    case 'uniswap_v3':
      return deployment.v3Managers.map((m) => m.protocol)
    case 'erc4626':
      return deployment.vaults.map((v) => v.protocol)
    case 'uniswap_v4':
      return (deployment.v4Managers ?? []).map((m) => m.protocol)
    case 'aave_v3':
      return (deployment.aaveV3Pools ?? []).length > 0 ? ['AaveV3'] : []
    case 'lido':
      return deployment.lido ? ['Lido'] : []
    default: {
      const never: never = family
      throw new Error(`Unknown family ${String(never)}.`)
    }
  }
}
