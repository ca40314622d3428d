import { encodeFunctionData, toHex } from 'viem'
import type { RpcClient } from '../evm/rpc/createRpcClient.ts'
import type { Address, Hex } from '../evm/types.ts'
import { decodeResult } from './decodeResult.ts'
import { erc4626Abi } from './defiAbis.ts'

/** A token whose `asset()` answered an address: maybe an ERC4626 vault. */
export type VaultProbe = { vault: Address; asset: Address; decimals: number | undefined }

const TOTAL_ASSETS = encodeFunctionData({ abi: erc4626Abi, functionName: 'totalAssets' })

/**
 * The second round of the ERC4626 probe (the first is `asset()`, `decodeAddressWord`), in one
 * batch at one block, by hash where given: a token is a vault when its asset has code and both
 * `totalAssets()` and `convertToAssets(10^decimals)` answer a uint256. Returns vault → asset.
 * Nothing here is trusted for values: unlisted vaults are checked again at request time.
 */
export async function probeVaults({
  rpc,
  blockNumber,
  blockHash,
  probes,
  signal,
}: {
  rpc: RpcClient
  blockNumber: bigint
  blockHash?: Hex | undefined
  probes: readonly VaultProbe[]
  signal?: AbortSignal | undefined
}): Promise<Map<Address, Address>> {
  const found = new Map<Address, Address>()
  const candidates = probes.filter((p) => p.decimals !== undefined)
  if (candidates.length === 0) return found
  const tag = blockHash ? { blockHash } : toHex(blockNumber)
  const call = (to: Address, data: Hex) => ({ method: 'eth_call', params: [{ to, data }, tag] })
  const results = await rpc.batch<Hex>(
    candidates.flatMap((p) => [
      { method: 'eth_getCode', params: [p.asset, tag] },
      call(p.vault, TOTAL_ASSETS),
      call(
        p.vault,
        encodeFunctionData({
          abi: erc4626Abi,
          functionName: 'convertToAssets',
          args: [10n ** BigInt(p.decimals ?? 0)],
        }),
      ),
    ]),
    signal ? { signal } : {},
  )
  const answer = (i: number) => {
    const r = results[i]
    return r?.ok && typeof r.result === 'string' ? r.result : undefined
  }
  for (const [i, p] of candidates.entries()) {
    const code = answer(3 * i)
    const total = decodeResult({
      abi: erc4626Abi,
      functionName: 'totalAssets',
      data: answer(3 * i + 1),
    })
    const unit = decodeResult({
      abi: erc4626Abi,
      functionName: 'convertToAssets',
      data: answer(3 * i + 2),
    })
    if (code && code !== '0x' && total !== undefined && unit !== undefined)
      found.set(p.vault, p.asset)
  }
  return found
}
