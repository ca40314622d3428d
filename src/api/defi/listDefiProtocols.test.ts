import { expect, test } from 'vitest'
import { testChainConfig } from '../../../test/support/testChain.ts'
import { CHAIN_CATALOGUE } from '../../chains/catalogue.ts'
import { DEFI_DEPLOYMENTS } from '../../defi/defiDeployments.ts'
import { parseDefiProtocol, toDefiDeployment } from '../../defi/defiProtocolEntry.ts'
import type { Address } from '../../evm/types.ts'
import { listDefiProtocols } from './listDefiProtocols.ts'

const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address
const [FACTORY, MANAGER, POOL_V2, POOL_V3, STETH, WSTETH] = [1, 2, 3, 4, 5, 6].map(address)

/** Chain 10 with one entry of each family, each deployed at the block named. */
function chain({ startBlock, entries }: { startBlock: number; entries: string[] }) {
  const defi = toDefiDeployment(entries.map((e) => parseDefiProtocol(e)!))
  return testChainConfig({
    chainId: 10,
    rpc: ['http://node'],
    startBlock,
    dexFactories: [{ type: 'uniswap_v2', address: FACTORY! }],
    defi,
  })
}

const ENTRIES = [
  `uniswap_v2:${FACTORY}:VeloV2@100`,
  `uniswap_v3:${MANAGER}:${FACTORY}@200`,
  `aave_v2:${POOL_V2}@300`,
  `aave_v3:${POOL_V3}`,
  `lido:${STETH}:${WSTETH}@150`,
]

const statuses = (
  c: ReturnType<typeof chain>,
  flags = { includePreviewChains: true, includePreviewProtocols: true },
) =>
  Object.fromEntries(
    listDefiProtocols({ chains: [c], catalogue: CHAIN_CATALOGUE, ...flags }).map((f) => [
      f.family,
      f.chains.map((x) => x.status).join(),
    ]),
  )

test('default: a chain indexed from block 0 is stable for every family', () => {
  expect(statuses(chain({ startBlock: 0, entries: ENTRIES }))).toEqual({
    uniswap_v2: 'stable',
    uniswap_v3: 'stable',
    aave_v2: 'stable',
    aave_v3: 'stable',
    lido: 'stable',
  })
})

test('behavior: an empty defiProtocols turns the chain off, its dexFactories V2 pairs too', () => {
  expect(statuses(chain({ startBlock: 0, entries: [] }))).toEqual({})
})

test('behavior: a family is preview where the chain starts after one of its entries was deployed', () => {
  // 200: after V2 (100) and Lido (150), not after V3 (200) or Aave V2 (300); Aave V3 has no
  // block, so it counts as deployed at 0.
  expect(statuses(chain({ startBlock: 200, entries: ENTRIES }))).toEqual({
    uniswap_v2: 'preview',
    uniswap_v3: 'stable',
    aave_v2: 'stable',
    aave_v3: 'preview',
    lido: 'preview',
  })
  const c = chain({ startBlock: 200, entries: ENTRIES })
  expect(statuses(c, { includePreviewChains: false, includePreviewProtocols: true })).toEqual({
    uniswap_v3: 'stable',
    aave_v2: 'stable',
  })
})

test('behavior: an entry marked @preview is preview, kept only by include_preview_protocols', () => {
  const c = chain({
    startBlock: 0,
    entries: [...ENTRIES.filter((e) => !e.startsWith('aave_v2')), `aave_v2:${POOL_V2}@preview`],
  })
  expect(statuses(c).aave_v2).toBe('preview')
  expect(statuses(c).aave_v3).toBe('stable')
  expect(
    statuses(c, { includePreviewChains: true, includePreviewProtocols: false }).aave_v2,
  ).toBeUndefined()
})

test('behavior: the shipped deployment on chain 1: families begun before startBlock are preview', () => {
  const c = testChainConfig({
    chainId: 1,
    rpc: ['http://node'],
    startBlock: 12_369_651,
    dexFactories: [],
    defi: DEFI_DEPLOYMENTS.get(1),
  })
  const s = statuses(c)
  // Uniswap V3's NPM was deployed at 12,369,651: complete; Aave V2 and Lido began earlier.
  expect([s.uniswap_v3, s.uniswap_v4, s.aave_v3, s.aave_v2, s.lido]).toEqual([
    'stable',
    'stable',
    'stable',
    'preview',
    'preview',
  ])
})
