import { describe, expect, test } from 'vitest'
import type { Address } from '../types.ts'
import type { Movement } from './collectEvent.ts'
import { findSwaps } from './findSwaps.ts'

const addr = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address
const WALLET = addr(1)
const ROUTER = addr(2)
const PAIR1 = addr(3)
const PAIR2 = addr(4)
const [A, B, C] = [addr(10), addr(11), addr(12)]
const erc20 = (token: Address, from: Address, to: Address, value: bigint): Movement => ({
  kind: 'erc20',
  token,
  from,
  to,
  tokenId: null,
  value,
})

describe('findSwaps', () => {
  test('a multi-hop route collapses to the wallet’s one in and one out', () => {
    const movements = [
      erc20(A, WALLET, PAIR1, 100n),
      erc20(B, PAIR1, PAIR2, 50n),
      erc20(C, PAIR2, WALLET, 7n),
    ]
    expect(findSwaps({ txFrom: WALLET, recipients: new Set(), movements })).toEqual([
      { wallet: WALLET, from: { token: A, value: 100n }, to: { token: C, value: 7n } },
    ])
  })

  test('native ETH on either side (tx value in, internal transfer out)', () => {
    const movements: Movement[] = [
      { kind: 'native', token: null, from: WALLET, to: ROUTER, tokenId: null, value: 10n },
      erc20(B, PAIR1, WALLET, 3n),
    ]
    expect(findSwaps({ txFrom: WALLET, recipients: new Set(), movements })[0]).toMatchObject({
      from: { token: null, value: 10n },
      to: { token: B, value: 3n },
    })
  })

  test('a recipient other than the sender swaps only if it both gave and got', () => {
    const movements = [erc20(A, WALLET, PAIR1, 100n), erc20(B, PAIR1, addr(9), 5n)]
    expect(findSwaps({ txFrom: WALLET, recipients: new Set([addr(9)]), movements })).toEqual([])
  })

  test('two tokens out (or none in) is not one swap', () => {
    const movements = [
      erc20(A, WALLET, PAIR1, 1n),
      erc20(B, WALLET, PAIR1, 1n),
      erc20(C, PAIR1, WALLET, 1n),
    ]
    expect(findSwaps({ txFrom: WALLET, recipients: new Set(), movements })).toEqual([])
  })
})
