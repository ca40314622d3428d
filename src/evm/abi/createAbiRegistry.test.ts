import {
  encodeAbiParameters,
  encodeEventTopics,
  encodeFunctionData,
  type Hex,
  parseAbi,
  toEventSelector,
} from 'viem'
import { describe, expect, test } from 'vitest'
import { createAbiRegistry } from './createAbiRegistry.ts'
import { InvalidAbiError, parseAbiJson } from './parseAbiJson.ts'

const A = '0x1111111111111111111111111111111111111111'
const B = '0x2222222222222222222222222222222222222222'
const registry = createAbiRegistry()

describe('decodeCall', () => {
  test('default: a Uniswap V2 router swap', () => {
    const abi = parseAbi([
      'function swapExactTokensForTokens(uint256, uint256, address[], address, uint256)',
    ])
    const data = encodeFunctionData({
      abi,
      functionName: 'swapExactTokensForTokens',
      args: [10n ** 18n, 5n, [A, B], B, 99n],
    })
    expect(registry.decodeCall(data)).toMatchInlineSnapshot(`
      {
        "inputs": [
          {
            "name": "amountIn",
            "type": "uint256",
            "value": "1000000000000000000",
          },
          {
            "name": "amountOutMin",
            "type": "uint256",
            "value": "5",
          },
          {
            "name": "path",
            "type": "address[]",
            "value": [
              "0x1111111111111111111111111111111111111111",
              "0x2222222222222222222222222222222222222222",
            ],
          },
          {
            "name": "to",
            "type": "address",
            "value": "0x2222222222222222222222222222222222222222",
          },
          {
            "name": "deadline",
            "type": "uint256",
            "value": "99",
          },
        ],
        "name": "swapExactTokensForTokens",
        "signature": "swapExactTokensForTokens(uint256,uint256,address[],address,uint256)",
      }
    `)
  })

  test('behavior: a tuple is the JSON text of an object keyed by component name', () => {
    const abi = parseAbi([
      'function exactInputSingle((address, address, uint24, address, uint256, uint256, uint256, uint160))',
    ])
    const data = encodeFunctionData({
      abi,
      functionName: 'exactInputSingle',
      args: [[A, B, 3000, A, 1n, 2n, 3n, 0n]],
    })
    const decoded = registry.decodeCall(data)
    expect(decoded?.signature).toBe(
      'exactInputSingle((address,address,uint24,address,uint256,uint256,uint256,uint160))',
    )
    expect(JSON.parse(decoded?.inputs[0]?.value as string)).toEqual({
      tokenIn: A,
      tokenOut: B,
      fee: '3000',
      recipient: A,
      deadline: '1',
      amountIn: '2',
      amountOutMinimum: '3',
      sqrtPriceLimitX96: '0',
    })
  })

  test('behavior: arrays of tuples and of arrays are arrays of JSON texts', () => {
    const abi = parseAbi([
      'struct Item { address who; uint256 amount; }',
      'function settle(Item[] items, uint256[][] grid, bytes32[2] pair)',
    ])
    const r = createAbiRegistry({ operator: [{ name: 'Settle', abi }] })
    const pair = [`0x${'ab'.repeat(32)}`, `0x${'cd'.repeat(32)}`] as const
    const data = encodeFunctionData({
      abi,
      functionName: 'settle',
      args: [[{ who: A, amount: 5n }], [[1n, 2n], []], pair],
    })
    expect(r.decodeCall(data)?.inputs.map((i) => [i.type, i.value])).toEqual([
      ['(address,uint256)[]', [`{"who":"${A}","amount":"5"}`]],
      ['uint256[][]', ['["1","2"]', '[]']],
      ['bytes32[2]', [...pair]],
    ])
  })

  test('behavior: operator ABIs are added and replaced', () => {
    const r = createAbiRegistry()
    const abi = parseAbi(['function frob(uint8 level, string note)'])
    const data = encodeFunctionData({ abi, functionName: 'frob', args: [7, 'hi'] })
    expect(r.decodeCall(data)).toBeUndefined()
    r.setOperatorAbis([{ name: 'Frob', abi }])
    expect(r.decodeCall(data)?.inputs.map((i) => i.value)).toEqual(['7', 'hi'])
    r.setOperatorAbis([])
    expect(r.decodeCall(data)).toBeUndefined()
  })

  test('error: hostile or malformed input decodes to undefined, never throws', () => {
    const swap = '0x38ed1739'
    const inputs: unknown[] = [
      null,
      undefined,
      42,
      '',
      '0x',
      '0x38ed',
      `${swap}zz`,
      `${swap}${'ff'.repeat(500)}`,
      // A dynamic array whose length claims 2^255 elements.
      `${swap}${'00'.repeat(64)}${(32 * 5).toString(16).padStart(64, '0')}${'00'.repeat(64)}8${'0'.repeat(63)}`,
      `${swap}${'00'.repeat(200_000)}`,
      '0xffffffff',
    ]
    for (const input of inputs) expect(registry.decodeCall(input as string)).toBeUndefined()
  })
})

describe('decodeLog', () => {
  const transfer = parseAbi(['event Transfer(address indexed, address indexed, uint256)'])
  const topics = encodeEventTopics({
    abi: transfer,
    eventName: 'Transfer',
    args: [A, B],
  }) as `0x${string}`[]

  test('default: ERC20 Transfer by three topics', () => {
    const decoded = registry.decodeLog({
      topics,
      data: encodeAbiParameters([{ type: 'uint256' }], [5n]),
    })
    expect(decoded?.name).toBe('Transfer')
    expect(decoded?.inputs).toEqual([
      { name: 'from', type: 'address', value: A },
      { name: 'to', type: 'address', value: B },
      { name: 'value', type: 'uint256', value: '5' },
    ])
  })

  test('behavior: ERC721 Transfer by four topics', () => {
    const id = encodeAbiParameters([{ type: 'uint256' }], [77n])
    const decoded = registry.decodeLog({ topics: [...topics, id], data: '0x' })
    expect(decoded?.inputs[2]).toEqual({ name: 'tokenId', type: 'uint256', value: '77' })
  })

  test('behavior: indexed dynamic values stay as their topic hash', () => {
    const uri = toEventSelector('URI(string,uint256)')
    const id = encodeAbiParameters([{ type: 'uint256' }], [3n])
    const decoded = registry.decodeLog({
      topics: [uri, id],
      data: encodeAbiParameters([{ type: 'string' }], ['ipfs://x']),
    })
    expect(decoded?.inputs.map((i) => i.value)).toEqual(['ipfs://x', '3'])
  })

  test('error: malformed logs decode to undefined', () => {
    const bad: unknown[] = [
      null,
      { topics: [], data: '0x' },
      { topics: ['0x12'], data: '0x' },
      { topics, data: '0x' },
      { topics, data: '0x1' },
      { topics: [...topics, topics[1], topics[1]], data: '0x' },
      { topics: 'nope', data: '0x' },
      { topics: [topics[0], 5, 6], data: '0x' },
    ]
    for (const log of bad)
      expect(registry.decodeLog(log as { topics: Hex[]; data: Hex })).toBeUndefined()
  })
})

describe('parseAbiJson', () => {
  test('default: an ABI array and an artifact', () => {
    const abi =
      '[{"type":"function","name":"f","inputs":[{"name":"x","type":"uint256"}],"outputs":[]}]'
    expect(parseAbiJson(abi)).toHaveLength(1)
    expect(parseAbiJson(`{"abi":${abi}}`)).toHaveLength(1)
  })

  test('error: not an ABI', () => {
    const cases = [
      'nope',
      '{}',
      '[]',
      '[1]',
      '[{"type":"potato"}]',
      '[{"type":"function","inputs":[]}]',
      '[{"type":"function","name":"f","inputs":[{"type":"uint7"}]}]',
      '[{"type":"function","name":"f","inputs":[{"type":"tuple"}]}]',
    ]
    const messages = cases.map((c) => {
      try {
        parseAbiJson(c)
        return 'accepted'
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidAbiError)
        return (error as InvalidAbiError).shortMessage
      }
    })
    expect(messages).toMatchInlineSnapshot(`
      [
        "The ABI is not valid JSON.",
        "An ABI must be a JSON array of fragments.",
        "The ABI has no fragments.",
        "The ABI's fragment 0 is not an object.",
        "The ABI's fragment 0 has type "potato"; expected one of function, event, error, constructor, fallback, receive.",
        "The ABI's fragment 0 (function) has no valid name.",
        "The ABI's fragment 0 inputs[0] has an invalid type "uint7".",
        "The ABI's fragment 0 inputs[0] components are not an array.",
      ]
    `)
  })
})
