import { expect, test } from 'vitest'
import type { ChainConfig } from '../config/types.ts'
import { ConfigError } from '../internal/errors.ts'
import { parseIndexChains } from './parseIndexChains.ts'

const chains = [{ chainId: 1 }, { chainId: 8453 }, { chainId: 10 }] as ChainConfig[]

test('default: every configured chain; a list picks those chains in its order', () => {
  expect(parseIndexChains({ text: undefined, chains })).toBe(chains)
  expect(parseIndexChains({ text: ' 10, 1 ', chains }).map((c) => c.chainId)).toEqual([10, 1])
})

test('errors: an empty list or a chain that is not configured is a ConfigError naming it', () => {
  expect(() => parseIndexChains({ text: ',', chains })).toThrow(ConfigError)
  expect(() => parseIndexChains({ text: '1,137', chains })).toThrow(/chain "137".*not configured/)
  expect(() => parseIndexChains({ text: 'base', chains })).toThrow(/Configured chains: 1, 8453, 10/)
})
