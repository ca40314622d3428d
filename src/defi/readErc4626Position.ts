import { encodeFunctionData } from 'viem'
import { erc20Abi } from '../evm/abis.ts'
import type { Address } from '../evm/types.ts'
import { checkVaultConsistency } from './checkVaultConsistency.ts'
import { decodeResult } from './decodeResult.ts'
import { erc4626Abi } from './defiAbis.ts'
import type { DefiCandidate, PositionRead } from './types.ts'

const ASSET = encodeFunctionData({ abi: erc4626Abi, functionName: 'asset' })
const TOTAL_ASSETS = encodeFunctionData({ abi: erc4626Abi, functionName: 'totalAssets' })
const TOTAL_SUPPLY = encodeFunctionData({ abi: erc20Abi, functionName: 'totalSupply' })

/**
 * Values ERC4626 vault shares by the vault's own answers. Round 1: the owner's shares, the
 * asset and totalAssets; round 2: previewRedeem and convertToAssets of those shares (and, for
 * an unlisted vault, the asset's totalSupply for `checkVaultConsistency`).
 */
export function* readErc4626Position(
  candidate: Extract<DefiCandidate, { type: 'erc4626' }>,
): PositionRead {
  const { owner, vault, listed } = candidate
  const r1 = yield [
    {
      to: vault,
      data: encodeFunctionData({ abi: erc4626Abi, functionName: 'balanceOf', args: [owner] }),
    },
    { to: vault, data: ASSET },
    { to: vault, data: TOTAL_ASSETS },
  ]
  const shares = decodeResult({ abi: erc4626Abi, functionName: 'balanceOf', data: r1[0] })
  const assetRaw = decodeResult({ abi: erc4626Abi, functionName: 'asset', data: r1[1] })
  const totalAssets = decodeResult({ abi: erc4626Abi, functionName: 'totalAssets', data: r1[2] })
  if (shares === undefined || assetRaw === undefined || totalAssets === undefined)
    return { ok: false, reason: 'read_failed' }
  const asset = assetRaw.toLowerCase() as Address

  const r2 = yield [
    {
      to: vault,
      data: encodeFunctionData({ abi: erc4626Abi, functionName: 'previewRedeem', args: [shares] }),
    },
    {
      to: vault,
      data: encodeFunctionData({
        abi: erc4626Abi,
        functionName: 'convertToAssets',
        args: [shares],
      }),
    },
    ...(listed ? [] : [{ to: asset, data: TOTAL_SUPPLY }]),
  ]
  const previewRedeem = decodeResult({
    abi: erc4626Abi,
    functionName: 'previewRedeem',
    data: r2[0],
  })
  const convertToAssets = decodeResult({
    abi: erc4626Abi,
    functionName: 'convertToAssets',
    data: r2[1],
  })
  if (previewRedeem === undefined || convertToAssets === undefined)
    return { ok: false, reason: 'read_failed' }
  if (!listed) {
    const assetTotalSupply = decodeResult({
      abi: erc20Abi,
      functionName: 'totalSupply',
      data: r2[2],
    })
    if (assetTotalSupply === undefined) return { ok: false, reason: 'read_failed' }
    const check = checkVaultConsistency({
      convertToAssets,
      previewRedeem,
      totalAssets,
      assetTotalSupply,
    })
    if (!check.ok) return { ok: false, reason: 'inconsistent_vault' }
  }
  return {
    ok: true,
    position: {
      type: 'erc4626',
      owner,
      vault,
      asset,
      listed,
      shares,
      previewRedeem,
      convertToAssets,
      totalAssets,
    },
  }
}
