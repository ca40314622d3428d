export type VaultConsistency =
  | { ok: true }
  | {
      ok: false
      /**
       * `assets_above_total`: the shares are said to be worth more than the whole vault holds;
       * `total_above_supply`: the vault claims more of the asset than exists.
       */
      reason: 'assets_above_total' | 'total_above_supply'
    }

/**
 * A sanity check for ERC4626 vaults nobody vouches for: what the holder's shares are worth
 * (`convertToAssets`, and `previewRedeem` when given) must fit in `totalAssets`, and that
 * must fit in the underlying token's `totalSupply`. A consistent liar still passes; this only
 * stops the cheap ones (e.g. a fake vault reporting 2^255 assets).
 */
export function checkVaultConsistency({
  convertToAssets,
  previewRedeem,
  totalAssets,
  assetTotalSupply,
}: {
  /** `convertToAssets(shares)` of the holder's shares. */
  convertToAssets: bigint
  /** `previewRedeem(shares)` of the same shares. */
  previewRedeem?: bigint | undefined
  totalAssets: bigint
  /** The underlying token's `totalSupply()`. */
  assetTotalSupply: bigint
}): VaultConsistency {
  if (convertToAssets > totalAssets || (previewRedeem ?? 0n) > totalAssets)
    return { ok: false, reason: 'assets_above_total' }
  if (totalAssets > assetTotalSupply) return { ok: false, reason: 'total_above_supply' }
  return { ok: true }
}
