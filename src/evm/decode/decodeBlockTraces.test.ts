import { describe, expect, test } from 'vitest'
import type { Hex } from '../types.ts'
import { decodeBlockTraces } from './decodeBlockTraces.ts'
import type { CallFrame } from './decodeCallTrace.ts'

const hash0: Hex = '0xe62ea17ae4cbf831f12b3f4817581fef6e9d0b4e19228a20867d96b1777ff447'
const hash1: Hex = '0x1111111111111111111111111111111111111111111111111111111111111111'
const contract = '0x5fbdb2315678afecb367f032d93f642f64180aa3'
const dead = '0x000000000000000000000000000000000000dead'
const eoa = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'

const tx = (value: `0x${string}`): CallFrame => ({
  type: 'CALL',
  from: eoa,
  to: contract,
  value: '0x0',
  gas: '0x5208',
  gasUsed: '0x5208',
  input: '0x',
  calls: [
    { type: 'CALL', from: contract, to: dead, value, gas: '0x8fc', gasUsed: '0x0', input: '0x' },
  ],
})
const transfer = (txHash: string, txIndex: number, value: bigint) => ({
  type: 'internal_transfer',
  blockNumber: 2n,
  txHash,
  txIndex,
  traceAddress: '0',
  callType: 'CALL',
  from: contract,
  to: dead,
  value,
})

describe('decodeBlockTraces', () => {
  test('default', () => {
    // anvil and geth ≥ 1.11: `[{ txHash, result }]` in transaction order.
    const traces = [
      { txHash: hash0, result: tx('0x1') },
      { txHash: hash1, result: tx('0x2') },
    ]
    expect(decodeBlockTraces({ traces, blockNumber: 2n })).toEqual([
      transfer(hash0, 0, 1n),
      transfer(hash1, 1, 2n),
    ])
  })

  test('args: txHashes, for nodes that leave txHash out', () => {
    const traces = [{ result: tx('0x1') }, { result: tx('0x2') }]
    expect(decodeBlockTraces({ traces, blockNumber: 2n, txHashes: [hash0, hash1] })).toEqual([
      transfer(hash0, 0, 1n),
      transfer(hash1, 1, 2n),
    ])
  })

  test('behavior: empty block', () => {
    expect(decodeBlockTraces({ traces: [], blockNumber: 2n, txHashes: [] })).toEqual([])
  })

  test('error: no transaction hash', () => {
    expect(() =>
      decodeBlockTraces({ traces: [{ result: tx('0x1') }], blockNumber: 2n }),
    ).toThrowErrorMatchingInlineSnapshot(`
      [NonRetryableError: Block trace entry has no transaction hash.

      Details: block 2, transaction index 0]
    `)
  })

  test('error: the node could not trace a transaction', () => {
    const traces = [
      { txHash: hash0, result: tx('0x1') },
      { txHash: hash1, error: 'execution timeout' },
    ]
    expect(() =>
      decodeBlockTraces({ traces, blockNumber: 2n }),
    ).toThrowErrorMatchingInlineSnapshot(`
      [NonRetryableError: Node could not trace a transaction.

      Details: block 2, transaction 0x1111111111111111111111111111111111111111111111111111111111111111: execution timeout]
    `)
  })

  test('error: trace does not match the block', () => {
    const traces = [{ txHash: hash0, result: tx('0x1') }]
    expect(() =>
      decodeBlockTraces({ traces, blockNumber: 2n, txHashes: [hash0, hash1] }),
    ).toThrowErrorMatchingInlineSnapshot(`
      [NonRetryableError: Block trace does not match the block.

      Details: block 2 has 2 transactions, trace has 1]
    `)
    expect(() =>
      decodeBlockTraces({ traces, blockNumber: 2n, txHashes: [hash1] }),
    ).toThrowErrorMatchingInlineSnapshot(`
      [NonRetryableError: Block trace does not match the block.

      Details: block 2, transaction index 0: trace is for 0xe62ea17ae4cbf831f12b3f4817581fef6e9d0b4e19228a20867d96b1777ff447]
    `)
  })
})
