import { expect, test } from 'vitest'
import { UNISWAP_V3_POOL_INIT_CODE_HASH } from './defiDeployments.ts'
import { parseDefiProtocol, toDefiDeployment } from './defiProtocolEntry.ts'

const A = `0x${'Aa'.repeat(20)}`
const a = A.toLowerCase()
const B = `0x${'bb'.repeat(20)}`
const C = `0x${'cc'.repeat(20)}`
const D = `0x${'dd'.repeat(20)}`
const E = `0x${'ee'.repeat(20)}`
const HASH = `0x${'Ab'.repeat(32)}`

test('default', () => {
  const entries = [
    `uniswap_v2:${A}:SushiSwapV2`,
    `uniswap_v3:${A}:${B}`,
    `uniswap_v3:${B}:${C}:PancakeV3:${HASH}@12`,
    `uniswap_v4:${A}:${B}:${C}`,
    `aave_v3:${A}@0`,
    `aave_v2:${C}@preview`,
    `erc4626:${B}:Yearn.v3`,
    `lido:${D}:${E}@11473216`,
  ].map(parseDefiProtocol)
  expect(entries.every((e) => e !== undefined)).toBe(true)
  expect(toDefiDeployment(entries.map((e) => e!))).toEqual({
    v2Protocols: { [a]: 'SushiSwapV2' },
    v3Managers: [
      {
        address: a,
        poolDeployer: B,
        poolInitCodeHash: UNISWAP_V3_POOL_INIT_CODE_HASH,
        protocol: 'UniswapV3',
      },
      {
        address: B,
        poolDeployer: C,
        poolInitCodeHash: HASH.toLowerCase(),
        protocol: 'PancakeV3',
      },
    ],
    v4Managers: [{ positionManager: a, poolManager: B, stateView: C, protocol: 'UniswapV4' }],
    aaveV3Pools: [a],
    aaveV2Pools: [C],
    vaults: [{ address: B, protocol: 'Yearn.v3' }],
    lido: { stEth: D, wstEth: E },
    // By the entry's address; Lido's block is both tokens'.
    fromBlocks: { [B]: 12, [a]: 0, [D]: 11473216, [E]: 11473216 },
    preview: [C],
  })
})

test('error: anything but the documented forms', () => {
  for (const text of [
    '',
    'aave_v3',
    `aave_v3:${A}:extra`,
    `aave_v2`,
    `aave_v2:${A}:${B}`,
    `aave_v3:${A}@`,
    `aave_v3:${A}@-1`,
    `aave_v3:${A}@01`,
    `aave_v3:${A}@1.5`,
    `aave_v3:${A}@Preview`,
    `aave_v3:${A}@1@preview`,
    `uniswap_v3:${A}:${B}:Pancake:0x1234`,
    `uniswap_v3:${A}:${B}:Pancake:${HASH}:extra`,
    `uniswap_v2:${A}`,
    `erc4626:${A}`,
    `erc4626:${A}:has space`,
    `erc4626:${A}:1starts-with-digit`,
    `uniswap_v3:${A}`,
    `uniswap_v3:${A}:0x1234`,
    `uniswap_v4:${A}:${B}`,
    `lido:${A}`,
    `lido:${A}:${B}:${C}`,
    `UNISWAP_V3:${A}:${B}`,
  ])
    expect(parseDefiProtocol(text), text).toBeUndefined()
})
