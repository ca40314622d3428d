import { describe, expect, test } from 'vitest'
import { type CallFrame, decodeCallTrace } from './decodeCallTrace.ts'

const txHash = '0xe62ea17ae4cbf831f12b3f4817581fef6e9d0b4e19228a20867d96b1777ff447'
const contract = '0x5fbdb2315678afecb367f032d93f642f64180aa3'
const dead = '0x000000000000000000000000000000000000dead'
const child = '0xb7a5bd0345ef1cc5e66bf61bdec17d2461fbd968'
const child2 = '0x344d9309a392ac4630fa63cbf964db8d40554a44'
const lib = '0xa16e02e87b7454126e5e10d957a927a7f5b5d2be'
const eoa = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'

/**
 * anvil's `debug_traceBlockByNumber` callTracer output for one call that: sends 1 wei to an
 * EOA, creates a child with 2 wei, has it selfdestruct to the EOA, creates another with
 * CREATE2 and 3 wei, calls it with 4 wei and catches the revert, delegatecalls a library
 * (which shows the inherited msg.value) and calls it with no value. Inputs and bytecode cut.
 */
const anvilTrace: CallFrame = {
  from: eoa,
  gas: '0xffad20',
  gasUsed: '0x53b33',
  to: contract,
  input: '0x522bb704000000000000000000000000000000000000000000000000000000000000dead',
  calls: [
    {
      from: contract,
      gas: '0x8fc',
      gasUsed: '0x0',
      to: dead,
      input: '0x',
      value: '0x1',
      type: 'CALL',
    },
    {
      from: contract,
      gas: '0xfaacbd',
      gasUsed: '0x18719',
      to: child,
      input: '0x6080',
      output: '0x6080',
      value: '0x2',
      type: 'CREATE',
    },
    {
      from: contract,
      gas: '0xf929b2',
      gasUsed: '0x1547',
      to: child,
      input: '0xc9353cb5000000000000000000000000000000000000000000000000000000000000dead',
      calls: [
        {
          from: child,
          gas: '0x0',
          gasUsed: '0x0',
          to: dead,
          input: '0x',
          value: '0x2',
          type: 'SELFDESTRUCT',
        },
      ],
      value: '0x0',
      type: 'CALL',
    },
    {
      from: contract,
      gas: '0xf89882',
      gasUsed: '0x18719',
      to: child2,
      input: '0x6080',
      output: '0x6080',
      value: '0x3',
      type: 'CREATE2',
    },
    {
      from: contract,
      gas: '0xf6fc90',
      gasUsed: '0x17e',
      to: child2,
      input: '0xa169ce09',
      output:
        '0x08c379a0000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000000026e6f000000000000000000000000000000000000000000000000000000000000',
      error: 'execution reverted',
      revertReason: 'no',
      value: '0x4',
      type: 'CALL',
    },
    {
      from: contract,
      gas: '0xf6e6f0',
      gasUsed: '0x11e',
      to: lib,
      input: '0x26121ff0',
      output: '0x0000000000000000000000000000000000000000000000000000000000000001',
      value: '0x100',
      type: 'DELEGATECALL',
    },
    {
      from: contract,
      gas: '0xf6e41d',
      gasUsed: '0x11e',
      to: lib,
      input: '0x26121ff0',
      output: '0x0000000000000000000000000000000000000000000000000000000000000001',
      value: '0x0',
      type: 'CALL',
    },
  ],
  value: '0x100',
  type: 'CALL',
}

const at = { blockNumber: 2n, txHash, txIndex: 0 } as const
const transfer = (
  traceAddress: string,
  callType: string,
  from: string,
  to: string,
  value: bigint,
) => ({
  type: 'internal_transfer',
  ...at,
  traceAddress,
  callType,
  from,
  to,
  value,
})

const frame = (overrides: Partial<CallFrame>): CallFrame => ({
  type: 'CALL',
  from: contract,
  to: dead,
  value: '0x1',
  ...overrides,
})

describe('decodeCallTrace', () => {
  test('default', () => {
    expect(decodeCallTrace({ trace: anvilTrace, ...at })).toEqual([
      transfer('0', 'CALL', contract, dead, 1n),
      transfer('1', 'CREATE', contract, child, 2n),
      transfer('2.0', 'SELFDESTRUCT', child, dead, 2n),
      transfer('3', 'CREATE2', contract, child2, 3n),
    ])
  })

  test('behavior: the top-level frame is the transaction, not an internal transfer', () => {
    expect(
      decodeCallTrace({ trace: frame({ from: eoa, value: '0xde0b6b3a7640000' }), ...at }),
    ).toEqual([])
  })

  test('behavior: a failed frame undoes everything under it', () => {
    const trace = frame({
      value: '0x0',
      calls: [
        frame({
          to: child,
          value: '0x5',
          error: 'execution reverted',
          calls: [
            frame({
              from: child,
              to: lib,
              value: '0x6',
              calls: [frame({ from: lib, value: '0x7' })],
            }),
          ],
        }),
        frame({ to: child2, value: '0x8' }),
      ],
    })
    expect(decodeCallTrace({ trace, ...at })).toEqual([transfer('1', 'CALL', contract, child2, 8n)])
  })

  test('behavior: a failed transaction moves nothing', () => {
    const trace = frame({
      error: 'out of gas',
      calls: [frame({ to: child, value: '0x5' })],
    })
    expect(decodeCallTrace({ trace, ...at })).toEqual([])
  })

  test('behavior: delegatecall, staticcall and callcode never move value', () => {
    const trace = frame({
      calls: [
        frame({ type: 'DELEGATECALL', value: '0x5' }),
        frame({ type: 'STATICCALL', value: undefined }),
        frame({ type: 'CALLCODE', value: '0x5' }),
        // Value sent from inside a delegatecall is sent by the caller's account.
        frame({ type: 'DELEGATECALL', to: lib, calls: [frame({ value: '0x9' })] }),
      ],
    })
    expect(decodeCallTrace({ trace, ...at })).toEqual([transfer('3.0', 'CALL', contract, dead, 9n)])
  })

  test('behavior: trace addresses follow the tree', () => {
    const trace = frame({
      calls: [
        frame({ value: '0x0' }),
        frame({
          to: child,
          value: '0x1',
          calls: [
            frame({ type: 'STATICCALL', value: undefined }),
            frame({
              from: child,
              value: '0x2',
              calls: [frame({ from: dead, to: lib, value: '0x3' })],
            }),
          ],
        }),
      ],
    })
    expect(decodeCallTrace({ trace, ...at }).map((t) => [t.traceAddress, t.value])).toEqual([
      ['1', 1n],
      ['1.1', 2n],
      ['1.1.0', 3n],
    ])
  })

  test('behavior: lowercases addresses, hash and call type', () => {
    const trace = frame({
      calls: [
        {
          type: 'call',
          from: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
          to: '0x000000000000000000000000000000000000dEaD',
          value: '0xA',
        },
      ],
    })
    expect(decodeCallTrace({ trace, ...at, txHash: `0x${txHash.slice(2).toUpperCase()}` })).toEqual(
      [transfer('0', 'CALL', contract, dead, 10n)],
    )
  })

  test('behavior: frames without calls, value or error fields', () => {
    const trace: CallFrame = {
      type: 'CALL',
      from: eoa,
      to: contract,
      calls: [{ type: 'CALL', from: contract, to: dead }],
    }
    expect(decodeCallTrace({ trace, ...at })).toEqual([])
  })

  test('error: unreadable frames are skipped, not thrown', () => {
    const trace = frame({
      calls: [
        frame({ to: undefined }),
        frame({ to: '0x1234' }),
        frame({ value: 'lots' as `0x${string}` }),
        frame({ value: '0x' }),
        { ...frame({ value: '0x0' }), calls: 'nope' } as unknown as CallFrame,
        frame({ value: '0x2' }),
      ],
    })
    expect(decodeCallTrace({ trace, ...at })).toEqual([transfer('5', 'CALL', contract, dead, 2n)])
  })
})
