import type { Address, Hex } from '../evm/types.ts'
import type { DefiDeployment } from './defiDeployments.ts'
import { UNISWAP_V3_POOL_INIT_CODE_HASH } from './defiDeployments.ts'

/** One DeFi deployment of a chain, as config names it (`defiProtocols`). */
export type DefiProtocolEntry = DefiProtocolTarget & {
  /** The block it was deployed at (or before), from `@<block>`. */
  fromBlock?: number
  /** `@preview`: listed as `preview` in supported-protocols whatever the blocks say. */
  preview?: true
}

type DefiProtocolTarget =
  | { type: 'uniswap_v2'; factory: Address; protocol: string }
  | {
      type: 'uniswap_v3'
      manager: Address
      /** The pools' CREATE2 deployer: the factory for Uniswap. */
      factory: Address
      protocol: string
      poolInitCodeHash: Hex
    }
  | {
      type: 'uniswap_v4'
      positionManager: Address
      poolManager: Address
      stateView: Address
      protocol: string
    }
  | { type: 'aave_v3' | 'aave_v2'; pool: Address }
  | { type: 'erc4626'; vault: Address; protocol: string }
  | { type: 'lido'; stEth: Address; wstEth: Address }

/** The text forms `parseDefiProtocol` reads (for error messages and --help). */
export const DEFI_PROTOCOL_FORMS = [
  'uniswap_v2:<factory>:<name>',
  'uniswap_v3:<position manager>:<pool deployer>[:<name>[:<pool init code hash>]]',
  'uniswap_v4:<position manager>:<pool manager>:<state view>[:<name>]',
  'aave_v3:<pool>',
  'aave_v2:<lending pool>',
  'erc4626:<vault>:<name>',
  'lido:<stETH>:<wstETH>',
  'each optionally followed by @<deployment block> or @preview',
] as const

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,39}$/
const HASH = /^0x[0-9a-fA-F]{64}$/
const BLOCK = /^(0|[1-9][0-9]{0,14})$/

/**
 * Pure: one `defiProtocols` entry from its text, or undefined when it is none of
 * `DEFI_PROTOCOL_FORMS` (addresses of 40 hex digits, names a letter then up to 39 letters,
 * digits, `_`, `.`, `-`, a hash of 64 hex digits), optionally followed by `@<block>` (the block
 * it was deployed at or before) or `@preview`. Addresses and hashes come out lowercase.
 */
export function parseDefiProtocol(text: string): DefiProtocolEntry | undefined {
  const [body = '', suffix, ...more] = text.split('@')
  if (more.length > 0) return undefined
  const target = parseTarget(body)
  if (!target || suffix === undefined) return target
  if (suffix === 'preview') return { ...target, preview: true }
  return BLOCK.test(suffix) ? { ...target, fromBlock: Number(suffix) } : undefined
}

function parseTarget(text: string): DefiProtocolTarget | undefined {
  const [type, ...parts] = text.split(':')
  const addresses = (n: number) => {
    const list = parts.slice(0, n)
    if (list.length !== n || !list.every((p) => ADDRESS.test(p))) return undefined
    return list.map((p) => p.toLowerCase() as Address)
  }
  const name = (at: number, fallback?: string, more = 0) => {
    if (parts.length > at + 1 + more) return undefined
    const given = parts[at]
    if (given === undefined) return fallback
    return NAME.test(given) ? given : undefined
  }
  switch (type) {
    case 'uniswap_v2': {
      const [factory] = addresses(1) ?? []
      const protocol = name(1)
      return factory && protocol ? { type, factory, protocol } : undefined
    }
    case 'uniswap_v3': {
      const [manager, factory] = addresses(2) ?? []
      const protocol = name(2, 'UniswapV3', 1)
      const hash = parts[3] ?? UNISWAP_V3_POOL_INIT_CODE_HASH
      return manager && factory && protocol && HASH.test(hash)
        ? { type, manager, factory, protocol, poolInitCodeHash: hash.toLowerCase() as Hex }
        : undefined
    }
    case 'uniswap_v4': {
      const [positionManager, poolManager, stateView] = addresses(3) ?? []
      const protocol = name(3, 'UniswapV4')
      return positionManager && poolManager && stateView && protocol
        ? { type, positionManager, poolManager, stateView, protocol }
        : undefined
    }
    case 'aave_v2':
    case 'aave_v3': {
      const [pool] = addresses(1) ?? []
      return pool && parts.length === 1 ? { type, pool } : undefined
    }
    case 'erc4626': {
      const [vault] = addresses(1) ?? []
      const protocol = name(1)
      return vault && protocol ? { type, vault, protocol } : undefined
    }
    case 'lido': {
      const [stEth, wstEth] = addresses(2) ?? []
      return stEth && wstEth && parts.length === 2 ? { type, stEth, wstEth } : undefined
    }
    default:
      return undefined
  }
}

/**
 * Pure: the deployment a chain's `defiProtocols` describe (it replaces the shipped one whole).
 * V3 managers derive their pools with Uniswap's init code hash unless the entry names one; at
 * most one Lido pair (the last wins). An entry's block and preview mark are kept by its
 * address (`fromBlocks`, `preview`; both of Lido's tokens). No entries at all turn the chain's
 * DeFi positions off (`off`: V2 pairs and detected vaults are not read either).
 */
export function toDefiDeployment(entries: readonly DefiProtocolEntry[]): DefiDeployment {
  const v3Managers: DefiDeployment['v3Managers'] = []
  const v4Managers: NonNullable<DefiDeployment['v4Managers']> = []
  const vaults: DefiDeployment['vaults'] = []
  const aaveV3Pools: Address[] = []
  const aaveV2Pools: Address[] = []
  let lido: DefiDeployment['lido']
  const v2: Record<Address, string> = {}
  const fromBlocks: Record<Address, number> = {}
  const preview: Address[] = []
  for (const e of entries) {
    for (const address of entryAddresses(e)) {
      if (e.fromBlock !== undefined) fromBlocks[address] = e.fromBlock
      if (e.preview) preview.push(address)
    }
    switch (e.type) {
      case 'uniswap_v2':
        v2[e.factory] = e.protocol
        break
      case 'uniswap_v3':
        v3Managers.push({
          address: e.manager,
          poolDeployer: e.factory,
          poolInitCodeHash: e.poolInitCodeHash,
          protocol: e.protocol,
        })
        break
      case 'uniswap_v4':
        v4Managers.push({
          positionManager: e.positionManager,
          poolManager: e.poolManager,
          stateView: e.stateView,
          protocol: e.protocol,
        })
        break
      case 'aave_v3':
        aaveV3Pools.push(e.pool)
        break
      case 'aave_v2':
        aaveV2Pools.push(e.pool)
        break
      case 'erc4626':
        vaults.push({ address: e.vault, protocol: e.protocol })
        break
      case 'lido':
        lido = { stEth: e.stEth, wstEth: e.wstEth }
        break
      default: {
        const never: never = e
        throw new Error(`Unknown DeFi protocol entry ${JSON.stringify(never)}.`)
      }
    }
  }
  return {
    ...(entries.length === 0 ? { off: true } : {}),
    v3Managers,
    v4Managers,
    v2Protocols: v2,
    vaults,
    aaveV3Pools,
    aaveV2Pools,
    ...(lido ? { lido } : {}),
    fromBlocks,
    preview,
  }
}

/** Pure: the addresses an entry is known by in `fromBlocks` and `preview`. */
function entryAddresses(e: DefiProtocolTarget): Address[] {
  switch (e.type) {
    case 'uniswap_v2':
      return [e.factory]
    case 'uniswap_v3':
      return [e.manager]
    case 'uniswap_v4':
      return [e.positionManager]
    case 'aave_v2':
    case 'aave_v3':
      return [e.pool]
    case 'erc4626':
      return [e.vault]
    case 'lido':
      return [e.stEth, e.wstEth]
    default: {
      const never: never = e
      throw new Error(`Unknown DeFi protocol entry ${JSON.stringify(never)}.`)
    }
  }
}
