import { expect, test } from 'vitest'
import { combineDefiChains } from './combineDefiChains.ts'
import type { ValuedDefiPosition } from './valueDefiPositions.ts'

const vault = (chainId: number, pool: string, valueUsd: number): ValuedDefiPosition => {
  const amount = { raw: 1n, units: 1, valueUsd }
  const token = { address: pool as `0x${string}` }
  return {
    type: 'Erc4626',
    chainId,
    protocol: 'Test',
    pool: pool as `0x${string}`,
    valueUsd,
    vault: token,
    shares: amount,
    underlying: token,
    previewRedeem: amount,
    convertToAssets: amount,
  }
}
const ok = (chainId: number, positions: ValuedDefiPosition[], more = {}) => ({
  status: 'ok' as const,
  chainId,
  blockNumber: 100 + chainId,
  positions,
  skipped: 0,
  truncated: 0,
  ...more,
})

test('default', () => {
  const answer = combineDefiChains([
    ok(10, [vault(10, '0xb', 5), vault(10, '0xa', 5)], { skipped: 2 }),
    ok(1, [vault(1, '0xc', 5), vault(1, '0xd', 7)], { truncated: 3 }),
    { status: 'unavailable', chainId: 137 },
    { status: 'unindexed', chainId: 8453 },
  ])
  expect(answer.positions.map((p) => `${p.chainId}:${p.pool}`)).toEqual([
    '1:0xd',
    '1:0xc',
    '10:0xa',
    '10:0xb',
  ])
  expect(answer.totalUsd).toBe(22)
  expect(answer.totalByChain).toEqual({ 1: 12, 10: 10 })
  expect([...answer.blocks]).toEqual([
    [10, 110],
    [1, 101],
  ])
  expect(answer.warnings.map((w) => [w.code, w.chain_ids])).toEqual([
    ['CHAIN_UNAVAILABLE', [137]],
    ['POSITIONS_SKIPPED', [10]],
    ['POSITIONS_TRUNCATED', [1]],
  ])
})

test('behavior: no positions, zero totals', () => {
  expect(combineDefiChains([ok(1, [])])).toMatchObject({
    positions: [],
    totalUsd: 0,
    totalByChain: {},
    warnings: [],
  })
})

test('error: every chain that had to read is down', () => {
  expect(() =>
    combineDefiChains([
      { status: 'unavailable', chainId: 1 },
      { status: 'unindexed', chainId: 10 },
    ]),
  ).toThrowErrorMatchingInlineSnapshot(
    `[ApiError: The node of chain 1 did not answer; try again shortly.]`,
  )
})
