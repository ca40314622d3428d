import { hexToBigInt } from 'viem'
import type { PoolEvent, PoolType } from '../poolTypes.ts'
import type { Address, Hex } from '../types.ts'
import {
  PAIR_CREATED_TOPIC,
  PANCAKE_V3_SWAP_TOPIC,
  POOL_CREATED_TOPIC,
  V2_BURN_TOPIC,
  V2_MINT_TOPIC,
  V2_SWAP_TOPIC,
  V2_SYNC_TOPIC,
  V3_BURN_TOPIC,
  V3_COLLECT_TOPIC,
  V3_INITIALIZE_TOPIC,
  V3_MINT_TOPIC,
  V3_SWAP_TOPIC,
} from './poolAbis.ts'

type Log = { address: string; topics: readonly string[]; data: string }

const WORD = /^0x[0-9a-fA-F]{64}$/
const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/** Topics that only say "this pool's state may have changed", with the pool type they imply. */
const TOUCH_TOPICS = new Map<string, PoolType>([
  [V2_SYNC_TOPIC, 'uniswap_v2'],
  [V2_MINT_TOPIC, 'uniswap_v2'],
  [V2_BURN_TOPIC, 'uniswap_v2'],
  [V3_INITIALIZE_TOPIC, 'uniswap_v3'],
  [V3_MINT_TOPIC, 'uniswap_v3'],
  [V3_BURN_TOPIC, 'uniswap_v3'],
  [V3_COLLECT_TOPIC, 'uniswap_v3'],
])

/**
 * Decodes a log into a pool event, or undefined. Anyone can emit these events from any
 * contract: a "pool" seen here is only a candidate until its factory vouches for it
 * (`planPoolUpdates`). Never throws.
 */
export function decodePoolLog(log: Log): PoolEvent | undefined {
  const topic0 = log.topics[0]?.toLowerCase()
  if (topic0 === undefined || !ADDRESS.test(log.address)) return undefined
  const emitter = log.address.toLowerCase() as Address
  const touchType = TOUCH_TOPICS.get(topic0)
  if (touchType) return { kind: 'touched', type: touchType, pool: emitter }
  switch (topic0) {
    case V2_SWAP_TOPIC: {
      // Swap(address indexed sender, uint, uint, uint, uint, address indexed to)
      const recipient = topicAddress(log.topics[2])
      if (log.topics.length !== 3 || !recipient || log.data.length !== 2 + 64 * 4) return undefined
      return { kind: 'swap', type: 'uniswap_v2', pool: emitter, recipient }
    }
    case V3_SWAP_TOPIC:
    case PANCAKE_V3_SWAP_TOPIC: {
      // Swap(address indexed sender, address indexed recipient, int256, int256, uint160, uint128,
      // int24), plus two uint128 protocol fees on PancakeSwap V3.
      const recipient = topicAddress(log.topics[2])
      const words = topic0 === V3_SWAP_TOPIC ? 5 : 7
      if (log.topics.length !== 3 || !recipient || log.data.length !== 2 + 64 * words)
        return undefined
      return { kind: 'swap', type: 'uniswap_v3', pool: emitter, recipient }
    }
    case PAIR_CREATED_TOPIC: {
      const token0 = topicAddress(log.topics[1])
      const token1 = topicAddress(log.topics[2])
      const pair = wordAddress(log.data, 0)
      if (log.topics.length !== 3 || !token0 || !token1 || !pair || log.data.length !== 130)
        return undefined
      return {
        kind: 'created',
        type: 'uniswap_v2',
        address: pair,
        factory: emitter,
        token0,
        token1,
        fee: null,
      }
    }
    case POOL_CREATED_TOPIC: {
      const token0 = topicAddress(log.topics[1])
      const token1 = topicAddress(log.topics[2])
      const feeTopic = log.topics[3]
      const pool = wordAddress(log.data, 1)
      if (log.topics.length !== 4 || !token0 || !token1 || !pool || log.data.length !== 130)
        return undefined
      if (feeTopic === undefined || !WORD.test(feeTopic)) return undefined
      const fee = hexToBigInt(feeTopic as Hex)
      if (fee >= 1n << 24n) return undefined
      return {
        kind: 'created',
        type: 'uniswap_v3',
        address: pool,
        factory: emitter,
        token0,
        token1,
        fee: Number(fee),
      }
    }
    default:
      return undefined
  }
}

function topicAddress(topic: string | undefined): Address | undefined {
  if (topic === undefined || !WORD.test(topic) || !/^0x0{24}/.test(topic)) return undefined
  return `0x${topic.slice(26).toLowerCase()}`
}

/** The `index`th 32-byte word of data as an address (12 zero bytes, then 20). */
function wordAddress(data: string, index: number): Address | undefined {
  const word = data.slice(2 + 64 * index, 66 + 64 * index)
  if (word.length !== 64 || !/^0{24}[0-9a-fA-F]{40}$/.test(word)) return undefined
  return `0x${word.slice(24).toLowerCase()}`
}
