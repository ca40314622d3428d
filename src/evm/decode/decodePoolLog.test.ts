import { encodeAbiParameters, encodeEventTopics, parseAbi } from 'viem'
import { describe, expect, test } from 'vitest'
import { decodePoolLog as decodeAny } from './decodePoolLog.ts'
import { uniswapV2Abi, uniswapV3Abi } from './poolAbis.ts'

const FACTORY = '0x5c69bee701ef814a2b6a3edd4b1652cb9cc5aa6f'
const T0 = '0x00000000000000000000000000000000000000a0'
const T1 = '0x00000000000000000000000000000000000000a1'
const POOL = '0x00000000000000000000000000000000000000b0'
const USER = '0x00000000000000000000000000000000000000c0'
const swapAbi = parseAbi([
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
])

// encodeEventTopics types its topics loosely; every topic here is a string.
const decodePoolLog = (log: { address: string; topics: unknown[]; data: string }) =>
  decodeAny(log as Parameters<typeof decodeAny>[0])

describe('decodePoolLog', () => {
  test('PairCreated and PoolCreated name the factory, tokens, pool and fee', () => {
    const pair = {
      address: FACTORY,
      topics: encodeEventTopics({
        abi: uniswapV2Abi,
        eventName: 'PairCreated',
        args: { token0: T0, token1: T1 },
      }),
      data: encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [POOL, 1n]),
    }
    expect(decodePoolLog(pair)).toEqual({
      kind: 'created',
      type: 'uniswap_v2',
      address: POOL,
      factory: FACTORY,
      token0: T0,
      token1: T1,
      fee: null,
    })
    const pool = {
      address: FACTORY,
      topics: encodeEventTopics({
        abi: uniswapV3Abi,
        eventName: 'PoolCreated',
        args: { token0: T0, token1: T1, fee: 3000 },
      }),
      data: encodeAbiParameters([{ type: 'int24' }, { type: 'address' }], [60, POOL]),
    }
    expect(decodePoolLog(pool)).toMatchObject({ type: 'uniswap_v3', address: POOL, fee: 3000 })
  })

  test('V2 and V3 swaps give the recipient; other pool events only touch the pool', () => {
    const v2 = {
      address: POOL,
      topics: encodeEventTopics({
        abi: [swapAbi[0]],
        eventName: 'Swap',
        args: { sender: USER, to: USER },
      }),
      data: encodeAbiParameters(
        [{ type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }],
        [1n, 0n, 0n, 2n],
      ),
    }
    expect(decodePoolLog(v2)).toEqual({
      kind: 'swap',
      type: 'uniswap_v2',
      pool: POOL,
      recipient: USER,
    })
    const v3 = {
      address: POOL,
      topics: encodeEventTopics({
        abi: [swapAbi[1]],
        eventName: 'Swap',
        args: { sender: USER, recipient: USER },
      }),
      data: encodeAbiParameters(
        [
          { type: 'int256' },
          { type: 'int256' },
          { type: 'uint160' },
          { type: 'uint128' },
          { type: 'int24' },
        ],
        [1n, -2n, 2n ** 96n, 10n, 0],
      ),
    }
    expect(decodePoolLog(v3)).toMatchObject({ kind: 'swap', type: 'uniswap_v3' })
    const sync = {
      address: POOL,
      topics: encodeEventTopics({ abi: uniswapV2Abi, eventName: 'Sync' }),
      data: encodeAbiParameters([{ type: 'uint112' }, { type: 'uint112' }], [1n, 2n]),
    }
    expect(decodePoolLog(sync)).toEqual({ kind: 'touched', type: 'uniswap_v2', pool: POOL })
  })

  test('malformed logs are ignored, never thrown on', () => {
    const topics = encodeEventTopics({
      abi: uniswapV2Abi,
      eventName: 'PairCreated',
      args: { token0: T0, token1: T1 },
    })
    const good = encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [POOL, 1n])
    for (const log of [
      { address: FACTORY, topics, data: '0x' },
      { address: FACTORY, topics, data: `${good}00` },
      { address: FACTORY, topics: topics.slice(0, 2), data: good },
      { address: FACTORY, topics: [topics[0], `0x${'f'.repeat(64)}`, topics[2]], data: good },
      { address: 'nope', topics, data: good },
      { address: FACTORY, topics: [], data: good },
    ]) {
      expect(decodePoolLog(log)).toBeUndefined()
    }
  })
})
