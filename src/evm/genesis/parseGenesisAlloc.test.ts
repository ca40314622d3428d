import { describe, expect, test } from 'vitest'
import { parseGenesisAlloc } from './parseGenesisAlloc.ts'

describe('parseGenesisAlloc', () => {
  test('default: funded accounts, with or without 0x, hex or decimal balances, lowercase', () => {
    expect(
      parseGenesisAlloc({
        config: { chainId: 1 },
        alloc: {
          '1111111111111111111111111111111111111111': { balance: '0x3635c9adc5dea00000' },
          '0xABCDEFabcdef0000000000000000000000000002': { balance: '12345' },
          '0x3333333333333333333333333333333333333333': { balance: '0x0', code: '0x6000' },
          '0x4444444444444444444444444444444444444444': { code: '0x6000' },
        },
      }),
    ).toEqual([
      '0x1111111111111111111111111111111111111111',
      '0xabcdefabcdef0000000000000000000000000002',
    ])
  })

  test('error: not a chain spec, a bad address, a bad balance', () => {
    expect(() => parseGenesisAlloc([])).toThrowErrorMatchingInlineSnapshot(
      `[Error: expected a JSON object with an "alloc" object]`,
    )
    expect(() => parseGenesisAlloc({ config: {} })).toThrowErrorMatchingInlineSnapshot(
      `[Error: expected an "alloc" object (address → { balance })]`,
    )
    expect(() =>
      parseGenesisAlloc({ alloc: { '0x12': { balance: '1' } } }),
    ).toThrowErrorMatchingInlineSnapshot(`[Error: "0x12" in alloc is not an address]`)
    expect(() =>
      parseGenesisAlloc({
        alloc: { '0x1111111111111111111111111111111111111111': { balance: 'lots' } },
      }),
    ).toThrowErrorMatchingInlineSnapshot(
      `[Error: the balance of 0x1111111111111111111111111111111111111111 is not a number: "lots"]`,
    )
  })
})
