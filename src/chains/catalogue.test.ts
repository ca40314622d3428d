import { expect, test } from 'vitest'
import { CHAIN_CATALOGUE, SVM_CHAINS } from './catalogue.ts'

// Copied by hand from spec/interface.md "list of all supported EVM chain IDs with tags".
const TABLE = {
  'default,mainnet': [
    1, 10, 56, 100, 137, 324, 999, 8453, 42161, 42170, 42220, 43114, 81457, 7777777,
  ],
  mainnet: [
    14, 30, 88, 130, 143, 146, 196, 204, 232, 250, 252, 288, 360, 480, 747, 1101, 1135, 1329, 1514,
    1868, 1923, 2020, 2741, 3338, 4326, 4153, 5000, 5031, 5330, 7560, 8333, 8217, 9745, 31612,
    33139, 34443, 43111, 50104, 55244, 57073, 59144, 60808, 80094, 98866, 543210, 660279, 690,
    728126428, 888888888, 666666666, 1380012617, 534352,
  ],
  omni: [166],
  testnet: [10143, 43113, 84532, 11155111, 11155931],
  devnet: [420120000, 420120001],
  '': [
    185, 239, 988, 2911, 5112, 16601, 21000000, 33979, 42431, 70700, 70701, 80002, 167000, 747474,
    984122, 1088, 1111, 4217,
  ],
}

test('default', () => {
  const byId = new Map(CHAIN_CATALOGUE.map((chain) => [chain.chainId, chain]))
  const tableIds = Object.values(TABLE).flat()
  expect(CHAIN_CATALOGUE.length).toBe(tableIds.length)
  for (const [tags, ids] of Object.entries(TABLE))
    for (const id of ids) expect(byId.get(id)?.tags.join(','), `chain ${id}`).toBe(tags)
})

test('behavior: ids and names are unique, names are API-style', () => {
  expect(new Set(CHAIN_CATALOGUE.map((chain) => chain.chainId)).size).toBe(CHAIN_CATALOGUE.length)
  expect(new Set(CHAIN_CATALOGUE.map((chain) => chain.name)).size).toBe(CHAIN_CATALOGUE.length)
  for (const chain of CHAIN_CATALOGUE) expect(chain.name).toMatch(/^[a-z][a-z0-9_]*$/)
})

test('behavior: names from decisions.md', () => {
  const names = Object.fromEntries(CHAIN_CATALOGUE.map((chain) => [chain.chainId, chain.name]))
  expect({
    1: names[1],
    8453: names[8453],
    43114: names[43114],
    4217: names[4217],
    42431: names[42431],
    11155931: names[11155931],
    728126428: names[728126428],
    420120001: names[420120001],
  }).toMatchInlineSnapshot(`
    {
      "1": "ethereum",
      "11155931": "chain_11155931",
      "420120001": "interop_alpha_1",
      "4217": "tempo_mainnet",
      "42431": "tempo",
      "43114": "avalanche_c",
      "728126428": "tron",
      "8453": "base",
    }
  `)
})

test('behavior: endpoint support', () => {
  const without = (endpoint: keyof (typeof CHAIN_CATALOGUE)[number]['endpoints']) =>
    CHAIN_CATALOGUE.filter((chain) => !chain.endpoints[endpoint]).map((chain) => chain.chainId)
  const withDefi = CHAIN_CATALOGUE.filter((chain) => chain.endpoints.defi_positions)
  expect(without('token_holders')).toEqual([2020, 4217])
  expect(withDefi.map((chain) => chain.chainId)).toEqual([1, 10, 130, 137, 8453, 42161])
  for (const endpoint of [
    'balances',
    'activity',
    'transactions',
    'collectibles',
    'token_info',
  ] as const)
    expect(without(endpoint)).toEqual([])
})

test('behavior: svm chains', () => {
  expect(SVM_CHAINS.map((chain) => chain.name)).toEqual(['solana', 'eclipse'])
})
