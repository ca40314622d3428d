import { encodeFunctionData } from 'viem'
import type { RpcClient } from '../evm/rpc/createRpcClient.ts'
import type { Address, Hex } from '../evm/types.ts'
import type { DefiTokenKind } from '../store/schema.ts'
import { decodeAddressWord } from './decodeAddressWord.ts'
import { aaveTokenAbi, erc4626Abi } from './defiAbis.ts'
import { type AaveTokenProbe, probeAaveTokens } from './probeAaveTokens.ts'
import { probeVaults, type VaultProbe } from './probeVaults.ts'

/**
 * What a new ERC20 token is asked in its first round (beside its metadata): `asset()`
 * (ERC4626), `POOL()` and `UNDERLYING_ASSET_ADDRESS()` (Aave tokens). Answers go, in this
 * order, to `probeDefiTokens`.
 */
export const DEFI_PROBE_CALLS: readonly Hex[] = [
  encodeFunctionData({ abi: erc4626Abi, functionName: 'asset' }),
  encodeFunctionData({ abi: aaveTokenAbi, functionName: 'POOL' }),
  encodeFunctionData({ abi: aaveTokenAbi, functionName: 'UNDERLYING_ASSET_ADDRESS' }),
]

/** A token found to be a DeFi position's token (a `defi_tokens` row without chain and block). */
export type DefiTokenFound = { kind: DefiTokenKind; underlying: Address; pool: Address | null }

/**
 * The second round of the DeFi token probe, at one block (by hash where given): tokens whose
 * first-round answers (`DEFI_PROBE_CALLS`) name addresses are checked as ERC4626 vaults
 * (`probeVaults`) and as Aave V2 and V3 tokens (`probeAaveTokens`), in parallel; tokens that
 * answered neither cost nothing. An Aave token is never also taken for a vault.
 */
export async function probeDefiTokens({
  rpc,
  blockNumber,
  blockHash,
  tokens,
  signal,
}: {
  rpc: RpcClient
  blockNumber: bigint
  blockHash?: Hex | undefined
  tokens: readonly {
    token: Address
    decimals: number | undefined
    /** The answers to `DEFI_PROBE_CALLS`, in order (`undefined`: reverted). */
    answers: readonly (Hex | undefined)[]
  }[]
  signal?: AbortSignal | undefined
}): Promise<Map<Address, DefiTokenFound>> {
  const vaultProbes: VaultProbe[] = []
  const aaveProbes: AaveTokenProbe[] = []
  for (const { token, decimals, answers } of tokens) {
    const [asset, pool, underlying] = answers.map(decodeAddressWord)
    if (asset) vaultProbes.push({ vault: token, asset, decimals })
    if (pool && underlying) aaveProbes.push({ token, pool, underlying })
  }
  const at = { rpc, blockNumber, blockHash, signal }
  const [vaults, aave] = await Promise.all([
    probeVaults({ ...at, probes: vaultProbes }),
    probeAaveTokens({ ...at, probes: aaveProbes }),
  ])
  const found = new Map<Address, DefiTokenFound>()
  for (const [vault, asset] of vaults)
    found.set(vault, { kind: 'erc4626', underlying: asset, pool: null })
  for (const p of aaveProbes) {
    const kind = aave.get(p.token)
    if (kind) found.set(p.token, { kind, underlying: p.underlying, pool: p.pool })
  }
  return found
}
