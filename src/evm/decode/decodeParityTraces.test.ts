import { describe, expect, test } from 'vitest'
import type { Hex } from '../types.ts'
import { decodeParityTraces, type ParityTrace } from './decodeParityTraces.ts'

const txHash = '0xe62ea17ae4cbf831f12b3f4817581fef6e9d0b4e19228a20867d96b1777ff447'
const otherTx = '0x1111111111111111111111111111111111111111111111111111111111111111'
const blockHash = '0xccae54c15fd7b11359709162c53826e94c412bd0c8c806ac9eec06ebbf961a05'
const contract = '0x5fbdb2315678afecb367f032d93f642f64180aa3'
const dead = '0x000000000000000000000000000000000000dead'
const child = '0xb7a5bd0345ef1cc5e66bf61bdec17d2461fbd968'
const child2 = '0x344d9309a392ac4630fa63cbf964db8d40554a44'
const lib = '0xa16e02e87b7454126e5e10d957a927a7f5b5d2be'
const eoa = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'

const common = { blockHash, blockNumber: 2, transactionHash: txHash, transactionPosition: 0 }
const callResult = { gasUsed: '0x0', output: '0x' }

/**
 * anvil's `trace_block` for the same transaction as the callTracer fixture in
 * decodeCallTrace.test.ts (inputs and bytecode cut).
 */
const anvilTraces: ParityTrace[] = [
  {
    ...common,
    action: {
      from: eoa,
      callType: 'call',
      gas: '0xffad20',
      input: '0x522bb704',
      to: contract,
      value: '0x100',
    },
    result: { gasUsed: '0x4e853', output: '0x' },
    subtraces: 7,
    traceAddress: [],
    type: 'call',
  },
  {
    ...common,
    action: { from: contract, callType: 'call', gas: '0x8fc', input: '0x', to: dead, value: '0x1' },
    result: callResult,
    subtraces: 0,
    traceAddress: [0],
    type: 'call',
  },
  {
    ...common,
    action: {
      from: contract,
      gas: '0xfaacbd',
      init: '0x6080',
      value: '0x2',
      creationMethod: 'create',
    },
    result: { address: child, code: '0x6080', gasUsed: '0x18719' },
    subtraces: 0,
    traceAddress: [1],
    type: 'create',
  },
  {
    ...common,
    action: {
      from: contract,
      callType: 'call',
      gas: '0xf929b2',
      input: '0xc9353cb5',
      to: child,
      value: '0x0',
    },
    result: { gasUsed: '0x1547', output: '0x' },
    subtraces: 1,
    traceAddress: [2],
    type: 'call',
  },
  {
    ...common,
    action: { address: child, balance: '0x2', refundAddress: dead },
    result: null,
    subtraces: 0,
    traceAddress: [2, 0],
    type: 'suicide',
  },
  {
    ...common,
    action: {
      from: contract,
      gas: '0xf89882',
      init: '0x6080',
      value: '0x3',
      creationMethod: 'create2',
    },
    result: { address: child2, code: '0x6080', gasUsed: '0x18719' },
    subtraces: 0,
    traceAddress: [3],
    type: 'create',
  },
  {
    ...common,
    action: {
      from: contract,
      callType: 'call',
      gas: '0xf6fc90',
      input: '0xa169ce09',
      to: child2,
      value: '0x4',
    },
    error: 'Reverted',
    result: { gasUsed: '0x17e', output: '0x08c379a0' },
    subtraces: 0,
    traceAddress: [4],
    type: 'call',
  },
  {
    ...common,
    action: {
      from: contract,
      callType: 'delegatecall',
      gas: '0xf6e6f0',
      input: '0x26121ff0',
      to: lib,
      value: '0x100',
    },
    result: callResult,
    subtraces: 0,
    traceAddress: [5],
    type: 'call',
  },
  {
    ...common,
    action: {
      from: contract,
      callType: 'call',
      gas: '0xf6e41d',
      input: '0x26121ff0',
      to: lib,
      value: '0x0',
    },
    result: callResult,
    subtraces: 0,
    traceAddress: [6],
    type: 'call',
  },
] as ParityTrace[]

const transfer = (
  traceAddress: string,
  callType: string,
  from: string,
  to: string,
  value: bigint,
  { hash = txHash, txIndex = 0 }: { hash?: string; txIndex?: number } = {},
) => ({
  type: 'internal_transfer',
  blockNumber: 2n,
  txHash: hash,
  txIndex,
  traceAddress,
  callType,
  from,
  to,
  value,
})

const call = (
  traceAddress: number[],
  overrides: Partial<ParityTrace> & { value?: Hex; to?: Hex; from?: Hex; callType?: string } = {},
): ParityTrace => {
  const { value = '0x1', to = dead, from = contract, callType = 'call', ...rest } = overrides
  return {
    ...common,
    action: { from, to, value, callType, gas: '0x0', input: '0x' },
    result: callResult,
    subtraces: 0,
    traceAddress,
    type: 'call',
    ...rest,
  } as ParityTrace
}

describe('decodeParityTraces', () => {
  test('default', () => {
    // The same transfers, with the same trace addresses, as callTracer gives for this tx.
    expect(decodeParityTraces({ traces: anvilTraces, blockNumber: 2n })).toEqual([
      transfer('0', 'CALL', contract, dead, 1n),
      transfer('1', 'CREATE', contract, child, 2n),
      transfer('2.0', 'SELFDESTRUCT', child, dead, 2n),
      transfer('3', 'CREATE2', contract, child2, 3n),
    ])
  })

  test('behavior: block rewards are not transfers', () => {
    const reward = {
      action: { author: dead, rewardType: 'block', value: '0x1bc16d674ec80000' },
      blockHash,
      blockNumber: 2,
      result: null,
      subtraces: 0,
      traceAddress: [],
      transactionHash: null,
      transactionPosition: null,
      type: 'reward',
    } as unknown as ParityTrace
    expect(
      decodeParityTraces({ traces: [reward, { ...reward, traceAddress: [0] }], blockNumber: 2n }),
    ).toEqual([])
  })

  test('behavior: a failed frame undoes everything under it, in its own transaction only', () => {
    const other = { transactionHash: otherTx, transactionPosition: 1 } as const
    const traces = [
      call([], { value: '0x0' }),
      call([0], { error: 'Reverted', value: '0x5' }),
      call([0, 0], { value: '0x6' }),
      call([0, 0, 3], { value: '0x7' }),
      call([1], { value: '0x8' }),
      call([1, 0], { value: '0x9' }),
      call([10], { value: '0xa' }),
      call([], { ...other, value: '0x0' }),
      call([0], { ...other, value: '0xb' }),
      call([0, 0], { ...other, value: '0xc' }),
    ]
    expect(decodeParityTraces({ traces, blockNumber: 2n })).toEqual([
      transfer('1', 'CALL', contract, dead, 8n),
      transfer('1.0', 'CALL', contract, dead, 9n),
      transfer('10', 'CALL', contract, dead, 10n),
      transfer('0', 'CALL', contract, dead, 11n, { hash: otherTx, txIndex: 1 }),
      transfer('0.0', 'CALL', contract, dead, 12n, { hash: otherTx, txIndex: 1 }),
    ])
  })

  test('behavior: a failed transaction moves nothing', () => {
    const traces = [call([], { error: 'Out of gas' }), call([0]), call([0, 1])]
    expect(decodeParityTraces({ traces, blockNumber: 2n })).toEqual([])
  })

  test('behavior: a failed create moves nothing', () => {
    const failedCreate = {
      ...common,
      action: { from: contract, gas: '0x0', init: '0x00', value: '0x5' },
      error: 'Bad instruction',
      result: null,
      subtraces: 0,
      traceAddress: [0],
      type: 'create',
    } as ParityTrace
    const { creationMethod: _, ...withoutMethod } = anvilTraces[2]!.action
    const oldCreate = { ...anvilTraces[2]!, action: withoutMethod }
    expect(decodeParityTraces({ traces: [failedCreate, oldCreate], blockNumber: 2n })).toEqual([
      // Nodes that do not report creationMethod: plain CREATE.
      transfer('1', 'CREATE', contract, child, 2n),
    ])
  })

  test('behavior: delegatecall, staticcall and callcode never move value', () => {
    const traces = [
      call([0], { callType: 'delegatecall', value: '0x5' }),
      call([1], { callType: 'staticcall', value: '0x0' }),
      call([2], { callType: 'callcode', value: '0x5' }),
      call([2, 0], { value: '0x6' }),
    ]
    expect(decodeParityTraces({ traces, blockNumber: 2n })).toEqual([
      transfer('2.0', 'CALL', contract, dead, 6n),
    ])
  })

  test('behavior: lowercases addresses and hashes', () => {
    const traces = [
      call([0], {
        transactionHash: `0x${txHash.slice(2).toUpperCase()}`,
        from: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
        to: '0x000000000000000000000000000000000000dEaD',
      }),
    ]
    expect(decodeParityTraces({ traces, blockNumber: 2n })).toEqual([
      transfer('0', 'CALL', contract, dead, 1n),
    ])
  })

  test('error: unreadable traces are skipped, not thrown', () => {
    const traces = [
      call([0], { to: '0x12' }),
      call([1], { value: 'many' as Hex }),
      { ...anvilTraces[4]!, traceAddress: [2], action: { address: child } },
      { ...anvilTraces[2]!, traceAddress: [3], result: null },
      { ...call([4]), type: 'mystery' },
      call([5], { value: '0x2' }),
    ] as ParityTrace[]
    expect(decodeParityTraces({ traces, blockNumber: 2n })).toEqual([
      transfer('5', 'CALL', contract, dead, 2n),
    ])
  })
})
