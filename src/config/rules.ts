import {
  DEFI_PROTOCOL_FORMS,
  type DefiProtocolEntry,
  parseDefiProtocol,
} from '../defi/defiProtocolEntry.ts'
import { type DexFactory, POOL_TYPES, type PoolType } from '../evm/poolTypes.ts'
import { redactUrl } from '../utils/redactUrl.ts'
import { sqliteFilePath } from '../utils/sqliteFilePath.ts'

/** Outcome of reading one option: its value, or what was expected and what was found. */
export type Parsed<T> = { value: T } | { error: string }

/**
 * How one option is read. `fromValue` reads a config-file value (types must match),
 * `fromText` reads an environment variable or a flag.
 */
export type Rule<T> = {
  fromValue: (value: unknown) => Parsed<T>
  fromText: (text: string) => Parsed<T>
}

export function integerRule({ min, max }: { min: number; max?: number }): Rule<number> {
  const expected = max === undefined ? `an integer ≥ ${min}` : `an integer from ${min} to ${max}`
  const check = (value: number) =>
    Number.isSafeInteger(value) && value >= min && (max === undefined || value <= max)
  return {
    fromValue: (value) =>
      typeof value === 'number' && check(value) ? { value } : invalid(expected, value),
    fromText: (text) =>
      /^-?[0-9]+$/.test(text.trim()) && check(Number(text))
        ? { value: Number(text) }
        : invalid(expected, text),
  }
}

export function oneOfRule<const T extends string>(choices: readonly T[]): Rule<T> {
  const expected =
    choices.length === 2 ? `"${choices[0]}" or "${choices[1]}"` : `one of ${choices.join(', ')}`
  const read = (value: unknown): Parsed<T> =>
    (choices as readonly unknown[]).includes(value)
      ? { value: value as T }
      : invalid(expected, value)
  return { fromValue: read, fromText: (text) => read(text.trim()) }
}

export function textRule(expected: string): Rule<string> {
  const read = (value: unknown): Parsed<string> =>
    typeof value === 'string' && value.trim() !== '' && !/\s/.test(value.trim())
      ? { value: value.trim() }
      : invalid(expected, value)
  return { fromValue: read, fromText: read }
}

export const booleanRule: Rule<boolean> = {
  fromValue: (value) => (typeof value === 'boolean' ? { value } : invalid('true or false', value)),
  fromText: (text) => {
    const t = text.trim().toLowerCase()
    if (t === 'true' || t === '1') return { value: true }
    if (t === 'false' || t === '0') return { value: false }
    return invalid('true or false', text)
  },
}

/** A list of header names: an array in files, comma-separated in env and flags. */
export const headerListRule: Rule<string[]> = (() => {
  const NAME = /^[A-Za-z0-9-]{1,64}$/
  const read = (items: unknown[]): Parsed<string[]> =>
    items.every((i) => typeof i === 'string' && NAME.test(i))
      ? { value: items as string[] }
      : invalid('HTTP header names (letters, digits, dashes)', items)
  return {
    fromValue: (value) =>
      Array.isArray(value) ? read(value) : invalid('an array of header names', value),
    fromText: (text) =>
      read(
        text
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== ''),
      ),
  }
})()

/** A URL with one of the given protocols. */
export function urlRule(protocols: readonly string[]): Rule<string> {
  const expected = `a ${protocols.map((p) => p.replace(':', '')).join(' or ')} URL`
  const read = (value: unknown): Parsed<string> => {
    if (typeof value !== 'string') return invalid(expected, value)
    try {
      const url = new URL(value.trim())
      return protocols.includes(url.protocol) ? { value: value.trim() } : invalid(expected, value)
    } catch {
      return invalid(expected, value)
    }
  }
  return { fromValue: read, fromText: read }
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/** One EVM address, stored lowercase. */
export const addressRule: Rule<`0x${string}`> = (() => {
  const read = (value: unknown): Parsed<`0x${string}`> =>
    typeof value === 'string' && ADDRESS.test(value.trim())
      ? { value: value.trim().toLowerCase() as `0x${string}` }
      : invalid('an address (0x and 40 hex digits)', value)
  return { fromValue: read, fromText: read }
})()

/** Items of a list: an array (or one string) in files, comma-separated in env and flags. */
function listRule<T>({
  expected,
  item,
}: {
  expected: string
  item: (text: string) => T | undefined
}): Rule<T[]> {
  const read = (items: unknown[]): Parsed<T[]> => {
    const out: T[] = []
    for (const raw of items) {
      const parsed = typeof raw === 'string' ? item(raw.trim()) : undefined
      if (parsed === undefined) return invalid(expected, raw)
      out.push(parsed)
    }
    return { value: out }
  }
  const split = (text: string) =>
    text
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '')
  return {
    fromValue: (value) =>
      typeof value === 'string'
        ? read(split(value))
        : Array.isArray(value)
          ? read(value)
          : invalid(`a list of ${expected}`, value),
    fromText: (text) => read(split(text)),
  }
}

export const addressListRule: Rule<`0x${string}`[]> = listRule({
  expected: 'addresses (0x and 40 hex digits)',
  item: (text) => (ADDRESS.test(text) ? (text.toLowerCase() as `0x${string}`) : undefined),
})

/** `uniswap_v2:0x…` or `uniswap_v3:0x…`. */
export const dexFactoryListRule: Rule<DexFactory[]> = listRule({
  expected: 'factories as uniswap_v2:<address> or uniswap_v3:<address>',
  item: (text) => {
    const [type, address] = text.split(':')
    if (!type || !address || !(POOL_TYPES as readonly string[]).includes(type)) return undefined
    if (!ADDRESS.test(address)) return undefined
    return { type: type as PoolType, address: address.toLowerCase() as `0x${string}` }
  },
})

export const defiProtocolListRule: Rule<DefiProtocolEntry[]> = listRule({
  expected: `DeFi deployments as ${DEFI_PROTOCOL_FORMS.join(', ')}`,
  item: parseDefiProtocol,
})

const RPC_PROTOCOLS = ['http:', 'https:', 'ws:', 'wss:']
const RPC_EXPECTED = 'http(s) or ws(s) URLs'

/** One or more RPC URLs: a string (commas separate several) or, in files, an array. */
export const rpcRule: Rule<string[]> = {
  fromValue: (value) => {
    if (typeof value === 'string') return readUrls([value])
    if (Array.isArray(value) && value.every((item) => typeof item === 'string'))
      return readUrls(value)
    return invalid(`a URL or an array of ${RPC_EXPECTED}`, value)
  },
  fromText: (text) => {
    const parsed = readUrls([text])
    return 'value' in parsed && parsed.value.length === 0
      ? { error: `expected ${RPC_EXPECTED}, got nothing` }
      : parsed
  },
}

function readUrls(items: readonly string[]): Parsed<string[]> {
  const urls = new Set<string>()
  for (const item of items.flatMap((item) => item.split(','))) {
    const text = item.trim()
    if (text === '') continue
    const url = parseUrl(text)
    if (!url || !RPC_PROTOCOLS.includes(url.protocol) || url.host === '')
      return { error: `expected ${RPC_EXPECTED}, got ${showUrl(text)}` }
    urls.add(text)
  }
  return { value: [...urls] }
}

/** `postgres://…`/`postgresql://…`, or a SQLite file path (also as `sqlite:<path>`). */
export const databaseRule: Rule<string> = (() => {
  const expected = 'a postgres:// URL or a SQLite file path'
  const read = (value: unknown): Parsed<string> => {
    if (typeof value !== 'string' || value.trim() === '') return invalid(expected, value)
    const text = value.trim()
    if (/^sqlite:/i.test(text)) {
      return sqliteFilePath(text) === '' ? invalid(expected, value) : { value: text }
    }
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return { value: text }
    const url = parseUrl(text)
    return url && (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.host
      ? { value: text }
      : { error: `expected ${expected}, got ${showUrl(text)}` }
  }
  return { fromValue: read, fromText: read }
})()

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text)
  } catch {
    return undefined
  }
}

function invalid(expected: string, value: unknown): { error: string } {
  return { error: `expected ${expected}, got ${showValue(value)}` }
}

/** A short, safe rendering of a bad value for an error message. */
export function showValue(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') return 'an object'
  if (typeof value !== 'string') return String(value)
  if (value.includes('://')) return showUrl(value)
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)
}

/**
 * A URL-like text without what may be secret: scheme and host of a URL; of anything else,
 * only the part before the first `:`, `/`, `?`, `#` or `@`.
 */
export function showUrl(text: string): string {
  if (parseUrl(text)?.host) return redactUrl(text)
  const [head = ''] = text.split(/[/?#@:]/, 1)
  const shown = head.length > 40 ? head.slice(0, 40) : head
  return JSON.stringify(shown.length < text.length ? `${shown}…` : shown)
}
