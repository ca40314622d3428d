import {
  type AbiEvent,
  type AbiFunction,
  type AbiParameter,
  decodeAbiParameters,
  toEventSelector,
  toFunctionSelector,
} from 'viem'
import type { Hex } from '../types.ts'
import { BUILTIN_ABIS, type NamedAbi } from './builtinAbis.ts'
import { canonicalType, type DecodedValue, formatDecodedValue } from './formatDecodedValue.ts'

export type DecodedInput = { name: string; type: string; value: DecodedValue }

export type Decoded = {
  name: string
  /** Canonical signature, e.g. `transfer(address,uint256)`. */
  signature: string
  inputs: DecodedInput[]
}

export type AbiRegistry = {
  /** Decodes calldata by its 4-byte selector; `undefined` when unknown or malformed. */
  decodeCall(data: string): Decoded | undefined
  /** Decodes a log by topic0 and topic count; `undefined` when unknown or malformed. */
  decodeLog(log: { topics: readonly string[]; data: string }): Decoded | undefined
  /** The function a selector names, without decoding arguments. */
  lookupFunction(selector: string): { name: string; signature: string } | undefined
  /** Replaces the operator ABIs (built-ins stay and win on a shared selector). */
  setOperatorAbis(abis: readonly NamedAbi[]): void
}

// Calldata and log data are attacker-controlled; past this size decoding is not worth the CPU.
const MAX_DATA_HEX = 2 + 2 * 128 * 1024
const HEX = /^0x(?:[0-9a-fA-F]{2})*$/
const TOPIC = /^0x[0-9a-fA-F]{64}$/

type Index = {
  functions: Map<string, AbiFunction[]>
  /** Keyed by `${topic0}:${topic count}`: ERC20 and ERC721 Transfer share topic0. */
  events: Map<string, AbiEvent[]>
}

/**
 * The selector and event index over the built-in ABIs plus operator ABIs. Lookups try the
 * candidates for a key in order (built-ins first) and take the first that decodes cleanly.
 */
export function createAbiRegistry({
  builtin = BUILTIN_ABIS,
  operator = [],
}: {
  builtin?: readonly NamedAbi[]
  operator?: readonly NamedAbi[]
} = {}): AbiRegistry {
  let index = buildIndex([...builtin, ...operator])

  return {
    decodeCall(data) {
      if (typeof data !== 'string' || data.length < 10 || data.length > MAX_DATA_HEX) return
      if (!HEX.test(data)) return
      const candidates = index.functions.get(data.slice(0, 10).toLowerCase())
      for (const fn of candidates ?? []) {
        const decoded = decodeParams(fn.inputs, `0x${data.slice(10)}`)
        if (decoded) return { name: fn.name, signature: signatureOf(fn), inputs: decoded }
      }
      return undefined
    },
    decodeLog(log) {
      const topics = log?.topics
      const data = log?.data
      if (!Array.isArray(topics) || topics.length === 0 || typeof data !== 'string') return
      if (data.length > MAX_DATA_HEX || !HEX.test(data)) return
      if (!topics.every((t) => typeof t === 'string' && TOPIC.test(t))) return
      const key = `${(topics[0] as string).toLowerCase()}:${topics.length}`
      for (const event of index.events.get(key) ?? []) {
        const decoded = decodeEvent({ event, topics: topics.slice(1) as Hex[], data: data as Hex })
        if (decoded) return { name: event.name, signature: signatureOf(event), inputs: decoded }
      }
      return undefined
    },
    lookupFunction(selector) {
      const fn = index.functions.get(selector.toLowerCase())?.[0]
      return fn ? { name: fn.name, signature: signatureOf(fn) } : undefined
    },
    setOperatorAbis(abis) {
      index = buildIndex([...builtin, ...abis])
    },
  }
}

function buildIndex(abis: readonly NamedAbi[]): Index {
  const functions = new Map<string, AbiFunction[]>()
  const events = new Map<string, AbiEvent[]>()
  const add = <T>(map: Map<string, T[]>, key: string, item: T) => {
    const list = map.get(key)
    if (list) list.push(item)
    else map.set(key, [item])
  }
  for (const { abi } of abis) {
    for (const item of abi) {
      try {
        if (item.type === 'function') add(functions, toFunctionSelector(item), item)
        else if (item.type === 'event' && !item.anonymous) {
          const indexed = item.inputs.filter((p) => p.indexed).length
          add(events, `${toEventSelector(item)}:${indexed + 1}`, item)
        }
      } catch {
        // An operator fragment viem cannot format is skipped, not fatal.
      }
    }
  }
  return { functions, events }
}

function signatureOf(item: AbiFunction | AbiEvent): string {
  return `${item.name}(${item.inputs.map(canonicalType).join(',')})`
}

function decodeParams(params: readonly AbiParameter[], data: Hex): DecodedInput[] | undefined {
  try {
    if (params.length === 0) return []
    const values = decodeAbiParameters(params, data)
    return params.map((param, i) => shape(param, values[i]))
  } catch {
    return undefined
  }
}

function decodeEvent({
  event,
  topics,
  data,
}: {
  event: AbiEvent
  topics: Hex[]
  data: Hex
}): DecodedInput[] | undefined {
  try {
    const indexed = event.inputs.filter((p) => p.indexed)
    const plain = event.inputs.filter((p) => !p.indexed)
    if (indexed.length !== topics.length) return undefined
    const plainValues = plain.length > 0 ? decodeAbiParameters(plain, data) : []
    let t = 0
    let d = 0
    return event.inputs.map((param) => {
      if (!param.indexed) return shape(param, plainValues[d++])
      const topic = topics[t++] as Hex
      // Indexed strings, bytes, arrays and tuples are stored as their keccak hash.
      if (isDynamic(param))
        return { name: param.name ?? '', type: canonicalType(param), value: topic }
      return shape(param, decodeAbiParameters([param], topic)[0])
    })
  } catch {
    return undefined
  }
}

function isDynamic(param: AbiParameter): boolean {
  return (
    param.type === 'string' ||
    param.type === 'bytes' ||
    /[\]]$/.test(param.type) ||
    param.type === 'tuple'
  )
}

function shape(param: AbiParameter, value: unknown): DecodedInput {
  return {
    name: param.name ?? '',
    type: canonicalType(param),
    value: formatDecodedValue({ param, value }),
  }
}
