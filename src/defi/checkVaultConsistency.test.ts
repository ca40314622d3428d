import { expect, test } from 'vitest'
import { checkVaultConsistency } from './checkVaultConsistency.ts'

test('default', () => {
  expect(
    checkVaultConsistency({
      convertToAssets: 10n,
      previewRedeem: 9n,
      totalAssets: 100n,
      assetTotalSupply: 1000n,
    }),
  ).toEqual({ ok: true })
  expect(
    checkVaultConsistency({ convertToAssets: 100n, totalAssets: 100n, assetTotalSupply: 100n }),
  ).toEqual({ ok: true })
})

test('behavior: inconsistent vaults', () => {
  expect(
    checkVaultConsistency({ convertToAssets: 101n, totalAssets: 100n, assetTotalSupply: 1000n }),
  ).toEqual({ ok: false, reason: 'assets_above_total' })
  expect(
    checkVaultConsistency({
      convertToAssets: 1n,
      previewRedeem: 101n,
      totalAssets: 100n,
      assetTotalSupply: 1000n,
    }),
  ).toEqual({ ok: false, reason: 'assets_above_total' })
  expect(
    checkVaultConsistency({
      convertToAssets: 1n,
      totalAssets: 2n ** 255n,
      assetTotalSupply: 1000n,
    }),
  ).toEqual({ ok: false, reason: 'total_above_supply' })
})
