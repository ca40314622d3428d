import { decodeAbiParameters, encodeAbiParameters, hexToBigInt, parseAbiParameters } from 'viem'
import {
  APPROVAL_FOR_ALL_TOPIC,
  APPROVAL_TOPIC,
  DEPOSIT_TOPIC,
  TRANSFER_BATCH_TOPIC,
  TRANSFER_SINGLE_TOPIC,
  TRANSFER_TOPIC,
  WITHDRAWAL_TOPIC,
} from '../abis.ts'
import type { Address, EventPosition, Hex, TokenEvent } from '../types.ts'

/** The parts of a receipt log that decode needs (numbers already parsed by fetch). */
export type DecodableLog = {
  address: Address
  topics: readonly Hex[]
  data: Hex
  blockNumber: bigint
  transactionHash: Hex
  transactionIndex: number
  logIndex: number
}

const WORD = /^0x[0-9a-fA-F]{64}$/
const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/
const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const ADDRESS_PADDING = '0'.repeat(24)
const batchParameters = parseAbiParameters('uint256[] ids, uint256[] values')

/**
 * Decodes one log into Scry's token events; `[]` when the log is not one of ours or is
 * malformed. Anyone can emit any event from any contract, so every field is checked and
 * nothing here throws: a bad log must not stop a chain's indexer.
 */
export function decodeLog(log: DecodableLog): TokenEvent[] {
  try {
    return decode(log)
  } catch {
    return []
  }
}

/** Decodes every log of a block or receipt list, in order. */
export function decodeLogs(logs: readonly DecodableLog[]): TokenEvent[] {
  return logs.flatMap(decodeLog)
}

function decode(log: DecodableLog): TokenEvent[] {
  const { topics, data } = log
  const topic0 = topics[0]
  if (topic0 === undefined || !WORD.test(topic0)) return []
  if (typeof data !== 'string' || !HEX_BYTES.test(data)) return []
  if (typeof log.address !== 'string' || !ADDRESS.test(log.address)) return []
  const token = log.address.toLowerCase() as Address

  switch (topic0.toLowerCase()) {
    case TRANSFER_TOPIC: {
      const from = topicAddress(topics[1])
      const to = topicAddress(topics[2])
      if (from === undefined || to === undefined) return []
      if (topics.length === 3) {
        const [value] = dataWords(data, 1) ?? []
        if (value === undefined) return []
        return [placed(log, 0, { type: 'erc20_transfer', token, from, to, value })]
      }
      if (topics.length === 4) {
        const tokenId = topicUint(topics[3])
        if (tokenId === undefined || data !== '0x') return []
        return [placed(log, 0, { type: 'erc721_transfer', token, from, to, tokenId })]
      }
      return []
    }
    case APPROVAL_TOPIC: {
      const owner = topicAddress(topics[1])
      const other = topicAddress(topics[2])
      if (owner === undefined || other === undefined) return []
      if (topics.length === 3) {
        const [value] = dataWords(data, 1) ?? []
        if (value === undefined) return []
        return [placed(log, 0, { type: 'erc20_approval', token, owner, spender: other, value })]
      }
      if (topics.length === 4) {
        const tokenId = topicUint(topics[3])
        if (tokenId === undefined || data !== '0x') return []
        return [placed(log, 0, { type: 'erc721_approval', token, owner, approved: other, tokenId })]
      }
      return []
    }
    case APPROVAL_FOR_ALL_TOPIC: {
      if (topics.length !== 3) return []
      const owner = topicAddress(topics[1])
      const operator = topicAddress(topics[2])
      const [flag] = dataWords(data, 1) ?? []
      if (owner === undefined || operator === undefined) return []
      // An ABI bool is exactly 0 or 1; anything else is not a Solidity-encoded event.
      if (flag !== 0n && flag !== 1n) return []
      return [
        placed(log, 0, { type: 'approval_for_all', token, owner, operator, approved: flag === 1n }),
      ]
    }
    case TRANSFER_SINGLE_TOPIC: {
      if (topics.length !== 4) return []
      const operator = topicAddress(topics[1])
      const from = topicAddress(topics[2])
      const to = topicAddress(topics[3])
      const [tokenId, value] = dataWords(data, 2) ?? []
      if (operator === undefined || from === undefined || to === undefined) return []
      if (tokenId === undefined || value === undefined) return []
      return [
        placed(log, 0, { type: 'erc1155_transfer', token, operator, from, to, tokenId, value }),
      ]
    }
    case TRANSFER_BATCH_TOPIC: {
      if (topics.length !== 4) return []
      const operator = topicAddress(topics[1])
      const from = topicAddress(topics[2])
      const to = topicAddress(topics[3])
      if (operator === undefined || from === undefined || to === undefined) return []
      const [ids, values] = decodeAbiParameters(batchParameters, data)
      if (ids.length !== values.length) return []
      // Solidity always emits the canonical encoding; anything else (odd offsets, trailing
      // bytes) was crafted, and two readers could disagree on what it says.
      if (encodeAbiParameters(batchParameters, [ids, values]) !== data.toLowerCase()) return []
      return ids.map((tokenId, i) =>
        placed(log, i, {
          type: 'erc1155_transfer' as const,
          token,
          operator,
          from,
          to,
          tokenId,
          value: values[i]!,
        }),
      )
    }
    case DEPOSIT_TOPIC: {
      if (topics.length !== 2) return []
      const to = topicAddress(topics[1])
      const [value] = dataWords(data, 1) ?? []
      if (to === undefined || value === undefined) return []
      return [placed(log, 0, { type: 'weth_deposit', token, to, value })]
    }
    case WITHDRAWAL_TOPIC: {
      if (topics.length !== 2) return []
      const from = topicAddress(topics[1])
      const [value] = dataWords(data, 1) ?? []
      if (from === undefined || value === undefined) return []
      return [placed(log, 0, { type: 'weth_withdrawal', token, from, value })]
    }
    default:
      return []
  }
}

/** An indexed address: a 32-byte word whose 12 high bytes are zero. */
function topicAddress(topic: Hex | undefined): Address | undefined {
  if (topic === undefined || !WORD.test(topic)) return undefined
  if (topic.slice(2, 26) !== ADDRESS_PADDING) return undefined
  return `0x${topic.slice(26).toLowerCase()}`
}

function topicUint(topic: Hex | undefined): bigint | undefined {
  if (topic === undefined || !WORD.test(topic)) return undefined
  return hexToBigInt(topic)
}

/** Exactly `count` 32-byte words of data as uint256, or undefined on any other length. */
function dataWords(data: Hex, count: number): bigint[] | undefined {
  if (data.length !== 2 + 64 * count) return undefined
  const words: bigint[] = []
  for (let i = 0; i < count; i++)
    words.push(hexToBigInt(`0x${data.slice(2 + 64 * i, 66 + 64 * i)}`))
  return words
}

/** Distributes over the union: each event's own fields, without its position. */
type Unplaced<E> = E extends TokenEvent ? Omit<E, keyof EventPosition> : never

/**
 * The event: `fields` (a fresh literal, which becomes the event) with its log's position set
 * on it. Not `{ ...position, type, … }`: V8 built each event of that spread the slow way
 * (decoding the 32,458 logs of the 20,000-transfer bench world took 235–250 ms compiled and
 * 400–600 under tsx, 80–90 and 90–160 this way; bench/README.md, 2026-11-28, fourth session).
 */
function placed(log: DecodableLog, subIndex: number, fields: Unplaced<TokenEvent>): TokenEvent {
  const event = fields as TokenEvent
  event.blockNumber = log.blockNumber
  event.txHash = log.transactionHash.toLowerCase() as Hex
  event.txIndex = log.transactionIndex
  event.logIndex = log.logIndex
  event.subIndex = subIndex
  return event
}
