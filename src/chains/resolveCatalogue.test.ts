import { expect, test } from 'vitest'
import { CHAIN_CATALOGUE } from './catalogue.ts'
import { findCatalogueProblems, resolveCatalogue } from './resolveCatalogue.ts'

test('default', () => {
  expect(resolveCatalogue()).toEqual(CHAIN_CATALOGUE)
})

test('behavior: adds a chain with defaults', () => {
  const catalogue = resolveCatalogue([{ chainId: 31337, name: 'local' }])
  expect(catalogue.find((chain) => chain.chainId === 31337)).toMatchInlineSnapshot(`
    {
      "chainId": 31337,
      "endpoints": {
        "activity": true,
        "balances": true,
        "collectibles": true,
        "defi_positions": false,
        "token_holders": true,
        "token_info": true,
        "transactions": true,
      },
      "name": "local",
      "tags": [],
    }
  `)
  expect(catalogue.length).toBe(CHAIN_CATALOGUE.length + 1)
  // Kept in chain id order.
  const ids = catalogue.map((chain) => chain.chainId)
  expect(ids).toEqual([...ids].sort((a, b) => a - b))
})

test('behavior: overrides a built-in chain field by field', () => {
  const catalogue = resolveCatalogue([
    { chainId: 8453, tags: ['mainnet'], endpoints: { token_holders: false } },
  ])
  const base = catalogue.find((chain) => chain.chainId === 8453)
  expect(base?.name).toBe('base')
  expect(base?.tags).toEqual(['mainnet'])
  expect(base?.endpoints).toMatchObject({ token_holders: false, defi_positions: true })
  // The built-in data is not changed.
  expect(CHAIN_CATALOGUE.find((chain) => chain.chainId === 8453)?.tags).toEqual([
    'default',
    'mainnet',
  ])
})

test('error: new chain without a name, duplicate id, name taken', () => {
  expect(
    findCatalogueProblems([{ chainId: 31337 }, { chainId: 1, name: 'x' }, { chainId: 1 }]),
  ).toMatchInlineSnapshot(`
    [
      "catalogue[0].name: chain 31337 is not built in, so it needs a name",
      "catalogue[2].chainId: chain 1 is already listed at catalogue[1]",
    ]
  `)
  expect(() =>
    resolveCatalogue([{ chainId: 31337, name: 'base' }]),
  ).toThrowErrorMatchingInlineSnapshot(`
    [ConfigError: Invalid chain catalogue:
      - catalogue[0].name: "base" is already the name of chain 8453]
  `)
})
