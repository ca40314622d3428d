import { expect, test } from 'vitest'
import { CHAIN_CATALOGUE } from './catalogue.ts'
import { expandChainIds, InvalidChainIdsError } from './expandChainIds.ts'

const enabled = new Set([1, 10, 2020, 8453, 42161, 84532, 11155111, 420120000])
const expand = (input: string | undefined, endpoint: 'balances' | 'token_holders' = 'balances') =>
  expandChainIds({ input, catalogue: CHAIN_CATALOGUE, enabled, endpoint })

test('default', () => {
  expect(expand(undefined)).toEqual({ chainIds: [1, 10, 8453, 42161], unsupported: [] })
})

test('args: blank input means default', () => {
  expect(expand('')).toEqual(expand(undefined))
  expect(expand(' , ')).toEqual(expand(undefined))
})

test('args: numeric ids', () => {
  expect(expand('8453,1')).toEqual({ chainIds: [1, 8453], unsupported: [] })
})

test('args: tags', () => {
  expect(expand('testnet')).toEqual({ chainIds: [84532, 11155111], unsupported: [] })
  expect(expand('devnet')).toEqual({ chainIds: [420120000], unsupported: [] })
  expect(expand('mainnet').chainIds).toEqual([1, 10, 2020, 8453, 42161])
  expect(expand('omni')).toEqual({ chainIds: [], unsupported: [] })
})

test('behavior: tags are OR-ed and mixed with ids, duplicates collapse', () => {
  expect(expand('testnet, 1,default,1 ,8453')).toEqual({
    chainIds: [1, 10, 8453, 42161, 84532, 11155111],
    unsupported: [],
  })
})

test('behavior: ids not indexed here or unknown are unsupported', () => {
  expect(expand('1,56,999999999,56')).toEqual({ chainIds: [1], unsupported: [56, 999999999] })
})

test('behavior: endpoint support', () => {
  // Ronin (2020) has no token holders: unsupported when named, skipped by tags.
  expect(expand('2020,1', 'token_holders')).toEqual({ chainIds: [1], unsupported: [2020] })
  expect(expand('mainnet', 'token_holders').chainIds).toEqual([1, 10, 8453, 42161])
})

test('error: chain name', () => {
  expect(() => expand('1,base')).toThrowErrorMatchingInlineSnapshot(
    `[InvalidChainIdsError: Invalid chain_ids: "base" is a chain name; use its numeric id 8453]`,
  )
})

test('error: unknown word', () => {
  let error: unknown
  try {
    expand('1,mainet')
  } catch (e) {
    error = e
  }
  expect(error).toBeInstanceOf(InvalidChainIdsError)
  expect((error as InvalidChainIdsError).token).toBe('mainet')
  expect((error as InvalidChainIdsError).code).toBe('BAD_REQUEST')
  expect((error as InvalidChainIdsError).shortMessage).toMatchInlineSnapshot(
    `"Invalid chain_ids: "mainet" is neither a numeric chain id nor a tag (default, mainnet, testnet, devnet, omni)"`,
  )
  expect(() => expand('-1')).toThrowErrorMatchingInlineSnapshot(
    `[InvalidChainIdsError: Invalid chain_ids: "-1" is neither a numeric chain id nor a tag (default, mainnet, testnet, devnet, omni)]`,
  )
  expect(() => expand('99999999999999999999')).toThrowErrorMatchingInlineSnapshot(
    `[InvalidChainIdsError: Invalid chain_ids: "99999999999999999999" is not a valid chain id]`,
  )
})
