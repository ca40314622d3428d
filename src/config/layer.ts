import type { GlobalSettings } from './fields.ts'
import type { ChainSettings } from './types.ts'

/** What one source (file, environment, flags) sets; later sources win field by field. */
export type Layer = {
  global: Partial<GlobalSettings>
  /** `origin` names where the chain id came from, for error messages. */
  chains: Map<number, { origin: string; settings: Partial<ChainSettings> }>
}

export function createLayer(): Layer {
  return { global: {}, chains: new Map() }
}

export function setGlobal(layer: Layer, key: keyof GlobalSettings, value: unknown): void {
  ;(layer.global as Record<string, unknown>)[key] = value
}

export function setChain({
  layer,
  chainId,
  origin,
  key,
  value,
}: {
  layer: Layer
  chainId: number
  origin: string
  key: keyof ChainSettings
  value: unknown
}): void {
  let chain = layer.chains.get(chainId)
  if (!chain) {
    chain = { origin, settings: {} }
    layer.chains.set(chainId, chain)
  }
  const { settings } = chain
  // Several flags for one chain add up for list settings (`--rpc 1=a --rpc 1=b`,
  // `--dex-factory`, `--defi-protocol`, …); other keys: last one wins.
  const before = (settings as Record<string, unknown>)[key]
  ;(settings as Record<string, unknown>)[key] =
    Array.isArray(before) && Array.isArray(value) ? [...new Set([...before, ...value])] : value
}
