import { request as httpRequest } from 'node:http'
import { type AddressInfo, connect, createServer, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createStore } from '../../src/store/createStore.ts'
import { createIndexedWorld, type IndexedWorld } from '../support/createIndexedWorld.ts'
import { createTestApi, type TestApi } from '../support/createTestApi.ts'
import {
  createTestDatabase,
  createTestStore,
  DIALECTS,
  type TestStore,
} from '../support/createTestStore.ts'
import { testChainConfig } from '../support/testChain.ts'

/**
 * The acceptance bad-input suite: every endpoint and parameter with wrong types, out-of-range
 * and huge numbers, unicode, very long values, repeated parameters, edited and foreign
 * cursors, wrong methods, unknown paths, oversized bodies, and wrong, missing, revoked,
 * over-quota and over-rate keys. Every answer must be a documented status with the documented
 * body (spec/decisions.md "Errors"), carry X-Request-Id, never show a stack trace, never be 5xx.
 */

type Res = {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  body: any
}

const QUOTA_BODY = { error: 'This request would exceed your compute-unit quota' }
const STACK = /\n\s+at |node_modules|\.ts:\d+|\.js:\d+/
const KB10 = 'a'.repeat(10 * 1024)
const EMOJI = '%F0%9F%98%80'
const RTL = '%D7%A9%D7%9C%D7%95%D7%9D' // שלום
const REPEAT = Symbol('repeat')
const BARE = Symbol('bare')
type Value = string | typeof REPEAT | typeof BARE

let indexed: IndexedWorld
let t: TestStore
let api: TestApi
/** Every response seen, checked for the rules that hold for all of them. */
const seen: { label: string; res: Res }[] = []

/** A raw HTTP request, so that paths and queries reach the server byte for byte. */
function send(
  method: string,
  path: string,
  {
    key,
    headers = {},
    body,
  }: { key?: string | null; headers?: Record<string, string>; body?: string } = {},
): Promise<Res> {
  const url = new URL(api.url)
  const useKey = key === undefined ? api.key : key
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: {
          ...(useKey === null ? {} : { 'X-Scry-Api-Key': useKey }),
          ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          let parsed: unknown = text
          try {
            parsed = JSON.parse(text)
          } catch {}
          const out = { status: res.statusCode ?? 0, headers: res.headers, text, body: parsed }
          seen.push({ label: `${method} ${path.slice(0, 120)}`, res: out })
          resolve(out)
        })
      },
    )
    req.on('error', reject)
    if (body !== undefined) req.end(body)
    else req.end()
  })
}

/** What every answer must satisfy; returns the problems found (empty when none). */
function problems(res: Res): string[] {
  const out: string[] = []
  if (!res.headers['x-request-id']) out.push('no X-Request-Id')
  if (STACK.test(res.text)) out.push('stack trace or internals in body')
  if (res.status >= 500) out.push(`status ${res.status}`)
  // Only a 2xx is charged, so only a 2xx says what it cost.
  if (res.status >= 300 && res.headers['x-compute-units-cost'] !== undefined)
    out.push(`${res.status} carries X-Compute-Units-Cost`)
  const b = res.body
  const coded = (code: string) => {
    const ok =
      b !== null &&
      typeof b === 'object' &&
      Object.keys(b).length === 1 &&
      typeof b.error === 'object' &&
      b.error !== null &&
      Object.keys(b.error).sort().join() === 'code,message' &&
      typeof b.error.message === 'string' &&
      b.error.message.length > 0 &&
      b.error.code === code
    if (!ok) out.push(`body is not {error:{message, code:${code}}}: ${res.text.slice(0, 200)}`)
  }
  switch (res.status) {
    case 400:
      coded('BAD_REQUEST')
      break
    case 401:
      if (
        !(b?.error === 'missing API key' || b?.error === 'invalid API key') ||
        Object.keys(b).length !== 1
      )
        out.push(`401 body ${res.text.slice(0, 200)}`)
      break
    case 402:
      if (JSON.stringify(b) !== JSON.stringify(QUOTA_BODY))
        out.push(`402 body ${res.text.slice(0, 200)}`)
      if (res.headers['x-compute-units-cost'] !== undefined)
        out.push('402 carries X-Compute-Units-Cost')
      break
    case 404:
      coded('NOT_FOUND')
      break
    case 405:
      coded('METHOD_NOT_ALLOWED')
      if (!String(res.headers.allow ?? '').includes('GET')) out.push('405 without Allow: GET')
      break
    case 413:
      coded('PAYLOAD_TOO_LARGE')
      break
    case 431:
      coded('HEADERS_TOO_LARGE')
      break
    case 429:
      if (typeof b?.error !== 'string' || !b.error.startsWith('Too many requests.'))
        out.push(`429 body ${res.text.slice(0, 200)}`)
      if (!res.headers['retry-after']) out.push('429 without Retry-After')
      break
    default:
      if (res.status !== 200) out.push(`undocumented status ${res.status}`)
  }
  return out
}

// ---- the endpoint table ---------------------------------------------------------------------

type Kind =
  | 'limit'
  | 'limit0'
  | 'chainIds'
  | 'singleChainId'
  | 'flag'
  | 'filterType'
  | 'assetClass'
  | 'metadata'
  | 'hours'
  | 'activityType'
  | 'assetType'
  | 'addressQuery'
  | 'offset'
type PathKind = 'address' | 'tokenOrNative' | 'holdersChain' | 'holdersToken'

type Case = { value: Value; status: readonly number[]; warning?: string; label?: string }

const BAD_400 = [400] as const
const OK = [200] as const

/** Values that no parameter accepts. */
const COMMON_BAD: Case[] = [
  { value: REPEAT, status: BAD_400, label: 'repeated' },
  { value: KB10, status: BAD_400, label: '10 KB' },
  { value: EMOJI, status: BAD_400, label: 'emoji' },
  { value: RTL, status: BAD_400, label: 'RTL' },
  { value: '%00', status: BAD_400, label: 'NUL' },
  { value: '%C0%AF', status: BAD_400, label: 'overlong UTF-8' },
  { value: '%ZZ', status: BAD_400, label: 'bad percent-encoding' },
  { value: "1'%20OR%201=1--", status: BAD_400, label: 'SQL' },
]

function limitCases(max: number, min: 0 | 1): Case[] {
  return [
    ...COMMON_BAD,
    { value: 'abc', status: BAD_400 },
    { value: '-1', status: BAD_400 },
    { value: '-0', status: min === 0 ? OK : BAD_400 },
    { value: '0', status: min === 0 ? OK : BAD_400 },
    { value: '1.5', status: BAD_400 },
    { value: '', status: BAD_400 },
    { value: BARE, status: BAD_400 },
    { value: 'true', status: BAD_400 },
    { value: 'NaN', status: BAD_400 },
    { value: '[1]', status: BAD_400 },
    { value: '1', status: OK },
    { value: String(max), status: OK },
    // Above the maximum: reduced to it (decisions.md "limit").
    { value: String(max + 1), status: OK },
    { value: '18446744073709551616', status: OK },
    { value: '99999999999999999999', status: OK },
    // Not an integer in digits (decisions.md: "not an integer → 400"), though a number.
    { value: '1e400', status: BAD_400 },
    { value: 'Infinity', status: BAD_400 },
    { value: '1e2', status: BAD_400 },
    { value: '0x10', status: BAD_400 },
    { value: '%201', status: BAD_400 },
    { value: '%2B5', status: BAD_400 },
    { value: '5.0', status: BAD_400 },
  ]
}

const CASES: Record<Kind, Case[]> = {
  limit: [], // per endpoint, see limitCases
  limit0: [],
  chainIds: [
    ...COMMON_BAD,
    { value: 'ethereum', status: BAD_400 },
    { value: 'Ethereum', status: BAD_400 },
    { value: '1,ethereum', status: BAD_400 },
    { value: 'foo', status: BAD_400 },
    { value: '-1', status: BAD_400 },
    { value: '1.5', status: BAD_400 },
    { value: '0x1', status: BAD_400 },
    { value: '1e400', status: BAD_400 },
    { value: '18446744073709551616', status: BAD_400 },
    { value: '99999999999999999999', status: BAD_400 },
    { value: '1;2', status: BAD_400 },
    { value: 'default', status: OK },
    { value: 'DEFAULT', status: OK },
    { value: 'mainnet', status: OK },
    { value: 'testnet', status: OK },
    { value: 'devnet', status: OK },
    { value: 'omni', status: OK },
    { value: 'default,1,mainnet,1', status: OK },
    { value: ',,', status: OK },
    { value: '', status: OK },
    { value: BARE, status: OK },
    { value: '%201%20', status: OK },
    { value: '1,%20,1', status: OK },
    { value: '0', status: OK, warning: 'UNSUPPORTED_CHAIN_IDS' },
    { value: '2', status: OK, warning: 'UNSUPPORTED_CHAIN_IDS' },
    { value: '1,8453', status: OK, warning: 'UNSUPPORTED_CHAIN_IDS' },
    { value: '9007199254740991', status: OK, warning: 'UNSUPPORTED_CHAIN_IDS' },
  ],
  singleChainId: [
    ...COMMON_BAD,
    { value: '', status: BAD_400 },
    { value: BARE, status: BAD_400 },
    { value: 'default', status: BAD_400 },
    { value: 'mainnet', status: BAD_400 },
    { value: 'ethereum', status: BAD_400 },
    { value: '1,1', status: BAD_400 },
    { value: '1,8453', status: BAD_400 },
    { value: '-1', status: BAD_400 },
    { value: '1.5', status: BAD_400 },
    { value: '1e400', status: BAD_400 },
    { value: '18446744073709551616', status: BAD_400 },
    { value: '99999999999999999999', status: BAD_400 },
    { value: '1', status: OK },
    { value: '%201', status: OK },
    { value: '2', status: OK, warning: 'UNSUPPORTED_CHAIN_IDS' },
    { value: '0', status: OK, warning: 'UNSUPPORTED_CHAIN_IDS' },
  ],
  flag: [
    ...COMMON_BAD,
    { value: 'TRUE', status: BAD_400 },
    { value: 'True', status: BAD_400 },
    { value: '1', status: BAD_400 },
    { value: '0', status: BAD_400 },
    { value: 'yes', status: BAD_400 },
    { value: 'on', status: BAD_400 },
    { value: 'truee', status: BAD_400 },
    { value: 'true', status: OK },
    { value: 'false', status: OK },
    { value: '', status: OK },
    { value: BARE, status: OK },
  ],
  filterType: [
    ...COMMON_BAD,
    { value: 'ERC20', status: BAD_400 },
    { value: 'erc721', status: BAD_400 },
    { value: 'erc20,native', status: BAD_400 },
    { value: '', status: BAD_400 },
    { value: 'erc20', status: OK },
    { value: 'native', status: OK },
  ],
  assetClass: [
    ...COMMON_BAD,
    { value: 'STABLECOIN', status: BAD_400 },
    { value: 'stablecoins', status: BAD_400 },
    { value: '', status: BAD_400 },
    { value: 'stablecoin', status: OK },
  ],
  metadata: [
    ...COMMON_BAD,
    { value: 'foo', status: BAD_400 },
    { value: 'logo,foo', status: BAD_400 },
    { value: 'logo,url,pools', status: OK },
    { value: 'logo,,url', status: OK },
    { value: '', status: OK },
  ],
  hours: [
    ...COMMON_BAD,
    { value: '', status: BAD_400 },
    { value: BARE, status: BAD_400 },
    { value: '1,2,3,4', status: BAD_400 },
    { value: '-1', status: BAD_400 },
    { value: '1.5', status: BAD_400 },
    { value: '1e3', status: BAD_400 },
    { value: 'a', status: BAD_400 },
    { value: '1,,2', status: BAD_400 },
    { value: '99999999999999999999', status: BAD_400 },
    { value: '1e400', status: BAD_400 },
    { value: '0', status: BAD_400 }, // offset_hours is at least 1 (published schema)
    { value: '1', status: OK },
    { value: '1,24,168', status: OK },
  ],
  activityType: [
    ...COMMON_BAD,
    { value: 'foo', status: BAD_400 },
    { value: 'send,foo', status: BAD_400 },
    { value: 'send', status: OK },
    { value: 'SEND', status: OK },
    { value: 'transfer', status: OK },
    { value: 'send,receive,mint,burn,swap,approve,call', status: OK },
    { value: 'send,,receive', status: OK },
    { value: '', status: OK },
  ],
  assetType: [
    ...COMMON_BAD,
    { value: 'foo', status: BAD_400 },
    { value: 'erc20,erc777', status: BAD_400 },
    { value: 'erc20', status: OK },
    { value: 'ERC20', status: OK },
    { value: 'native,erc20,erc721,erc1155', status: OK },
    { value: '', status: OK },
  ],
  addressQuery: [
    ...COMMON_BAD,
    { value: '', status: BAD_400 },
    { value: '0x1234', status: BAD_400 },
    { value: `0x${'a'.repeat(41)}`, status: BAD_400 },
    { value: `0x${'g'.repeat(40)}`, status: BAD_400 },
    { value: 'a'.repeat(40), status: BAD_400 },
    { value: `0X${'a'.repeat(40)}`, status: BAD_400 },
    { value: 'native', status: BAD_400 },
    { value: `0x${'aB'.repeat(20)}`, status: OK },
  ],
  offset: [
    { value: REPEAT, status: BAD_400 },
    // Over the declared maximum length: a 400 or the first page, never an error status else.
    { value: KB10, status: [200, 400], warning: 'INVALID_OFFSET?' },
    { value: EMOJI, status: OK, warning: 'INVALID_OFFSET' },
    { value: RTL, status: OK, warning: 'INVALID_OFFSET' },
    { value: '%00', status: OK, warning: 'INVALID_OFFSET' },
    { value: '%C0%AF', status: OK, warning: 'INVALID_OFFSET' },
    { value: '%ZZ', status: OK, warning: 'INVALID_OFFSET' },
    { value: 'garbage', status: OK, warning: 'INVALID_OFFSET' },
    { value: 'a.b', status: OK, warning: 'INVALID_OFFSET' },
    { value: '.', status: OK, warning: 'INVALID_OFFSET' },
    { value: '0', status: OK, warning: 'INVALID_OFFSET' },
    { value: '-1', status: OK, warning: 'INVALID_OFFSET' },
    { value: '1e400', status: OK, warning: 'INVALID_OFFSET' },
    { value: 'eyJjIjoxLCJhIjoibmF0aXZlIn0', status: OK, warning: 'INVALID_OFFSET' },
    { value: 'WzEsMiwzLDRd.AAAAAAAAAAAAAAAAAAAAAA', status: OK, warning: 'INVALID_OFFSET' },
    { value: '', status: OK, warning: 'INVALID_OFFSET?' },
    { value: BARE, status: OK, warning: 'INVALID_OFFSET?' },
  ],
}

const PATH_CASES: Record<PathKind, Case[]> = {
  address: [
    { value: '0x1234', status: BAD_400 },
    { value: `0x${'a'.repeat(39)}`, status: BAD_400 },
    { value: `0x${'a'.repeat(41)}`, status: BAD_400 },
    { value: `0x${'g'.repeat(40)}`, status: BAD_400 },
    { value: 'a'.repeat(42), status: BAD_400 },
    { value: 'a'.repeat(40), status: BAD_400 },
    { value: `0X${'a'.repeat(40)}`, status: BAD_400 },
    { value: 'native', status: BAD_400 },
    { value: 'vitalik.eth', status: BAD_400 },
    { value: `%20${`0x${'a'.repeat(40)}`}`, status: BAD_400 },
    { value: `0x${'a'.repeat(40)}%00`, status: BAD_400 },
    { value: EMOJI, status: BAD_400 },
    { value: RTL, status: BAD_400 },
    { value: '%00', status: BAD_400 },
    { value: 'a'.repeat(300), status: BAD_400 },
    { value: "0x'%20OR%201=1--", status: BAD_400 },
  ],
  tokenOrNative: [
    { value: '0x1234', status: BAD_400 },
    { value: `0x${'g'.repeat(40)}`, status: BAD_400 },
    { value: 'a'.repeat(40), status: BAD_400 },
    { value: 'NATIVE', status: BAD_400 },
    { value: 'natives', status: BAD_400 },
    { value: 'eth', status: BAD_400 },
    { value: EMOJI, status: BAD_400 },
    { value: '%00', status: BAD_400 },
    { value: 'a'.repeat(300), status: BAD_400 },
    { value: 'native', status: OK },
  ],
  holdersChain: [
    { value: 'abc', status: BAD_400 },
    { value: 'ethereum', status: BAD_400 },
    { value: '0', status: BAD_400 },
    { value: '-1', status: BAD_400 },
    { value: '1.5', status: BAD_400 },
    { value: EMOJI, status: BAD_400 },
    { value: '%00', status: BAD_400 },
    { value: 'a'.repeat(300), status: BAD_400 },
    { value: '2', status: [404] },
    { value: '18446744073709551616', status: BAD_400 },
    { value: '99999999999999999999', status: BAD_400 },
    { value: '1e400', status: BAD_400 },
    { value: '1.0', status: BAD_400 },
    { value: '01', status: [200, 404] },
  ],
  holdersToken: [
    { value: '0x1234', status: BAD_400 },
    { value: `0x${'g'.repeat(40)}`, status: BAD_400 },
    { value: 'native', status: BAD_400 },
    { value: EMOJI, status: BAD_400 },
    { value: 'a'.repeat(300), status: BAD_400 },
    { value: `0x${'1'.repeat(40)}`, status: [404] },
  ],
}

type Endpoint = {
  name: string
  /** The path with `{address}`-style placeholders for the path parameters. */
  path: string
  pathParams: Partial<Record<string, PathKind>>
  /** Query parameters that must be given for a valid request. */
  required?: Record<string, string>
  query: Record<string, Kind>
  max?: number
  list?: string
  warnings: boolean
  metered: boolean
}

function endpoints(): Endpoint[] {
  return [
    {
      name: 'balances',
      path: '/v1/evm/balances/{address}',
      pathParams: { address: 'address' },
      query: {
        chain_ids: 'chainIds',
        filter_type: 'filterType',
        filters: 'filterType',
        asset_class: 'assetClass',
        metadata: 'metadata',
        exclude_spam_tokens: 'flag',
        historical_prices: 'hours',
        offset: 'offset',
        limit: 'limit',
      },
      max: 1000,
      list: 'balances',
      warnings: true,
      metered: true,
    },
    {
      name: 'stablecoins',
      path: '/v1/evm/balances/{address}/stablecoins',
      pathParams: { address: 'address' },
      query: { chain_ids: 'chainIds', offset: 'offset', limit: 'limit' },
      max: 1000,
      list: 'balances',
      warnings: true,
      metered: true,
    },
    {
      name: 'single token',
      path: '/v1/evm/balances/{address}/token/{token_address}',
      pathParams: { address: 'address', token_address: 'tokenOrNative' },
      required: { chain_ids: '1' },
      query: { chain_ids: 'singleChainId' },
      list: 'balances',
      warnings: true,
      metered: true,
    },
    {
      name: 'activity',
      path: '/v1/evm/activity/{address}',
      pathParams: { address: 'address' },
      query: {
        chain_ids: 'chainIds',
        activity_type: 'activityType',
        asset_type: 'assetType',
        token_address: 'addressQuery',
        offset: 'offset',
        limit: 'limit',
      },
      max: 100,
      list: 'activity',
      warnings: true,
      metered: true,
    },
    {
      name: 'transactions',
      path: '/v1/evm/transactions/{address}',
      pathParams: { address: 'address' },
      query: { chain_ids: 'chainIds', decode: 'flag', offset: 'offset', limit: 'limit' },
      max: 100,
      list: 'transactions',
      warnings: true,
      metered: true,
    },
    {
      name: 'collectibles',
      path: '/v1/evm/collectibles/{address}',
      pathParams: { address: 'address' },
      query: {
        chain_ids: 'chainIds',
        filter_spam: 'flag',
        show_spam_scores: 'flag',
        offset: 'offset',
        limit: 'limit',
      },
      max: 500,
      list: 'collectibles',
      warnings: true,
      metered: true,
    },
    ...['/v1', '/beta'].map(
      (prefix): Endpoint => ({
        name: `defi positions ${prefix}`,
        path: `${prefix}/evm/defi/positions/{address}`,
        pathParams: { address: 'address' },
        query: { chain_ids: 'chainIds' },
        list: 'positions',
        warnings: true,
        metered: true,
      }),
    ),
    {
      name: 'defi supported protocols',
      path: '/v1/evm/defi/supported-protocols',
      pathParams: {},
      query: { include_preview_chains: 'flag', include_preview_protocols: 'flag' },
      list: 'protocol_families',
      warnings: false,
      metered: true,
    },
    {
      name: 'token info',
      path: '/v1/evm/token-info/{address}',
      pathParams: { address: 'tokenOrNative' },
      required: { chain_ids: '1' },
      query: {
        chain_ids: 'singleChainId',
        historical_prices: 'hours',
        limit: 'limit0',
        offset: 'offset',
      },
      max: 1000,
      list: 'tokens',
      warnings: true,
      metered: true,
    },
    {
      name: 'token holders',
      path: '/v1/evm/token-holders/{chain_id}/{address}',
      pathParams: { chain_id: 'holdersChain', address: 'holdersToken' },
      query: { limit: 'limit', offset: 'offset' },
      max: 500,
      list: 'holders',
      warnings: false,
      metered: true,
    },
    {
      name: 'supported chains',
      path: '/v1/evm/supported-chains',
      pathParams: {},
      query: {},
      list: 'chains',
      warnings: false,
      metered: false,
    },
    {
      name: 'status',
      path: '/v1/status',
      pathParams: {},
      query: {},
      list: 'chains',
      warnings: false,
      metered: false,
    },
  ]
}

/** Valid path values, filled in once the world exists. */
const valid: Record<string, string> = {}

function buildPath(endpoint: Endpoint, overrides: Record<string, string> = {}): string {
  return endpoint.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    if (name in overrides) return overrides[name] as string
    const kind = endpoint.pathParams[name]
    const value =
      kind === 'holdersChain'
        ? '1'
        : kind === 'holdersToken'
          ? valid.token
          : name === 'token_address'
            ? valid.token
            : endpoint.name === 'token info'
              ? valid.token
              : valid.wallet
    return value as string
  })
}

function queryPart(name: string, value: Value): string {
  if (value === REPEAT) return `${name}=1&${name}=2`
  if (value === BARE) return name
  return `${name}=${value}`
}

function buildUrl(endpoint: Endpoint, params: [string, Value][], pathOverrides = {}): string {
  const given = new Set(params.map(([n]) => n))
  const parts = [
    ...Object.entries(endpoint.required ?? {})
      .filter(([n]) => !given.has(n))
      .map(([n, v]) => queryPart(n, v)),
    ...params.map(([n, v]) => queryPart(n, v)),
  ]
  const path = buildPath(endpoint, pathOverrides)
  return parts.length > 0 ? `${path}?${parts.join('&')}` : path
}

function describeValue(c: Case): string {
  if (c.label) return c.label
  if (c.value === REPEAT) return 'repeated'
  if (c.value === BARE) return 'bare'
  return JSON.stringify(c.value.slice(0, 40))
}

/** Checks one answer against its case; returns a description of what is wrong, if anything. */
function judge({ endpoint, c, res }: { endpoint: Endpoint; c: Case; res: Res }): string[] {
  const out = problems(res)
  if (!c.status.includes(res.status))
    out.push(`status ${res.status}, expected ${c.status.join('|')}`)
  if (res.status === 200 && endpoint.list && !Array.isArray(res.body?.[endpoint.list]))
    out.push(`no ${endpoint.list} array`)
  if (res.status === 200 && c.warning && endpoint.warnings) {
    const code = c.warning.replace('?', '')
    const has = (res.body?.warnings ?? []).some((w: { code: string }) => w.code === code)
    if (!has && !c.warning.endsWith('?')) out.push(`no ${code} warning`)
  }
  return out
}

beforeAll(async () => {
  indexed = await createIndexedWorld({ chainId: 1, transfers: 300, wallets: 20 })
})
afterAll(async () => {
  await indexed?.stop()
})

for (const dialect of DIALECTS)
  describe(`bad input (${dialect})`, () => {
    beforeAll(async () => {
      const started = performance.now()
      t = await createTestStore(dialect)
      await indexed.indexInto(t.store)
      api = await createTestApi({
        store: t.store,
        chains: [testChainConfig({ chainId: 1, rpc: [indexed.anvil.rpcUrl] })],
      })
      const erc20 = indexed.world.tokens.find((tk) => tk.kind === 'erc20')
      valid.token = (erc20?.address ?? indexed.world.weth).toLowerCase()
      // The wallet with the most transactions, so that every list has more than one page.
      let best = { wallet: indexed.world.wallets[0] as string, count: -1 }
      for (const wallet of indexed.world.wallets.slice(0, 8)) {
        const r = await api.get(`/v1/evm/transactions/${wallet}?chain_ids=1&limit=100`)
        if (r.body.transactions.length > best.count)
          best = { wallet, count: r.body.transactions.length }
      }
      valid.wallet = best.wallet.toLowerCase()
      console.info(`${dialect} store ready in ${Math.round(performance.now() - started)} ms`)
    })

    afterAll(async () => {
      await api?.close()
      await t?.drop()
    })

    describe('every endpoint and parameter', () => {
      for (const endpoint of endpoints()) {
        test(`default: ${endpoint.name} answers a valid request`, async () => {
          const res = await send('GET', buildUrl(endpoint, []))
          expect(problems(res)).toEqual([])
          expect(res.status).toBe(200)
        })

        const queryEntries = Object.entries(endpoint.query)
        if (queryEntries.length > 0)
          test(`error: ${endpoint.name} query parameters with bad values`, async () => {
            const failures: string[] = []
            for (const [name, kind] of queryEntries) {
              const cases =
                kind === 'limit'
                  ? limitCases(endpoint.max ?? 1000, 1)
                  : kind === 'limit0'
                    ? limitCases(endpoint.max ?? 1000, 0)
                    : CASES[kind]
              for (const c of cases) {
                const url = buildUrl(endpoint, [[name, c.value]])
                const res = await send('GET', url)
                for (const p of judge({ endpoint, c, res }))
                  failures.push(`${name}=${describeValue(c)}: ${p}`)
              }
            }
            expect(failures).toEqual([])
          })

        const pathEntries = Object.entries(endpoint.pathParams) as [string, PathKind][]
        if (pathEntries.length > 0)
          test(`error: ${endpoint.name} path parameters with bad values`, async () => {
            const failures: string[] = []
            for (const [name, kind] of pathEntries) {
              for (const c of PATH_CASES[kind]) {
                const url = buildUrl(endpoint, [], { [name]: c.value as string })
                const res = await send('GET', url)
                for (const p of judge({ endpoint, c, res }))
                  failures.push(`${name}=${describeValue(c)}: ${p}`)
              }
            }
            expect(failures).toEqual([])
          })
      }

      test('behavior: a mixed-case address is accepted and answered in lowercase', async () => {
        const mixed = `0x${[...valid.wallet!.slice(2)].map((ch, i) => (i % 2 ? ch.toUpperCase() : ch)).join('')}`
        const lowerToken = valid.token!
        const mixedToken = `0x${lowerToken.slice(2).toUpperCase()}`
        const pairs: [string, (b: any) => unknown][] = [
          [`/v1/evm/balances/${mixed}?chain_ids=1`, (b) => b.wallet_address],
          [`/v1/evm/balances/${mixed}/stablecoins?chain_ids=1`, (b) => b.wallet_address],
          [`/v1/evm/balances/${mixed}/token/${mixedToken}?chain_ids=1`, (b) => b.wallet_address],
          [`/v1/evm/transactions/${mixed}?chain_ids=1&limit=1`, (b) => b.wallet_address],
          [`/v1/evm/collectibles/${mixed}?chain_ids=1`, (b) => b.wallet_address],
          [`/v1/evm/token-info/${mixedToken}?chain_ids=1`, (b) => b.contract_address],
          [`/v1/evm/token-holders/1/${mixedToken}?limit=1`, (b) => b.token_address],
        ]
        for (const [path, pick] of pairs) {
          const res = await send('GET', path)
          expect(problems(res), path).toEqual([])
          expect(res.status, path).toBe(200)
          const value = pick(res.body)
          expect(value, path).toBe(String(value).toLowerCase())
          if (mixed !== valid.wallet) expect(res.text, path).not.toContain(mixed.slice(2))
        }
        const activity = await send(
          'GET',
          `/v1/evm/activity/${mixed}?chain_ids=1&token_address=${mixedToken}&limit=5`,
        )
        expect(activity.status).toBe(200)
        for (const item of activity.body.activity) expect(item.token_address).toBe(lowerToken)
      })

      test('behavior: unknown and prototype-named parameters are ignored', async () => {
        for (const q of [
          'foo=bar',
          '__proto__=1&constructor=2&toString=3',
          '__proto__[limit]=1',
          'a[b][c]=1',
        ]) {
          const res = await send('GET', `/v1/evm/balances/${valid.wallet}?chain_ids=1&${q}`)
          expect(problems(res), q).toEqual([])
          expect([200, 400], q).toContain(res.status)
        }
      })

      test('error: a parameter that takes one value, given twice, says so', async () => {
        for (const [q, name] of [
          ['chain_ids=1&limit=1&limit=2', 'limit'],
          ['chain_ids=1&chain_ids=8453', 'chain_ids'],
        ]) {
          const res = await send('GET', `/v1/evm/transactions/${valid.wallet}?${q}`)
          expect(res.status, q).toBe(400)
          expect(res.body.error.message, q).toBe(
            `Invalid querystring parameter ${name}: must be given once.`,
          )
        }
      })
    })

    describe('cursors', () => {
      /** List endpoints with a second page for the chosen wallet/token. */
      const lists = () =>
        [
          {
            path: `/v1/evm/balances/${valid.wallet}?chain_ids=1`,
            list: 'balances',
            warnings: true,
          },
          {
            path: `/v1/evm/activity/${valid.wallet}?chain_ids=1`,
            list: 'activity',
            warnings: true,
          },
          {
            path: `/v1/evm/transactions/${valid.wallet}?chain_ids=1`,
            list: 'transactions',
            warnings: true,
          },
          {
            path: `/v1/evm/collectibles/${valid.wallet}?chain_ids=1&filter_spam=false`,
            list: 'collectibles',
            warnings: true,
          },
          { path: `/v1/evm/token-holders/1/${valid.token}?`, list: 'holders', warnings: false },
        ] as const

      test('error: edited, foreign and garbage cursors serve the first page', async () => {
        const failures: string[] = []
        const cursors: { path: string; cursor: string }[] = []
        for (const e of lists()) {
          const first = await send('GET', `${e.path}&limit=1`)
          const cursor = first.body?.next_offset
          if (typeof cursor !== 'string') {
            failures.push(`${e.list}: no second page to test with`)
            continue
          }
          cursors.push({ path: e.path, cursor })
        }
        for (const e of lists()) {
          const first = await send('GET', `${e.path}&limit=2`)
          const own = cursors.find((c) => c.path === e.path)?.cursor ?? 'x.y'
          const [payload = '', mac = ''] = own.split('.')
          // Edit the first character: the last one of base64 may hold only padding bits.
          const flip = (s: string) => `${s.startsWith('A') ? 'B' : 'A'}${s.slice(1)}`
          const edited = [
            `${flip(payload)}.${mac}`,
            `${payload}.${flip(mac)}`,
            `${Buffer.from(JSON.stringify([9e15, 1, 1, 1])).toString('base64url')}.${mac}`,
            `${Buffer.from(`{"c":1,"a":"0x${'0'.repeat(40)}"}`).toString('base64url')}.${mac}`,
            `${payload}.`,
            `.${mac}`,
            `${payload}${mac}`,
            own.toUpperCase(),
          ]
          const foreign = cursors.filter((c) => c.path !== e.path).map((c) => c.cursor)
          for (const offset of [...edited, ...foreign]) {
            const res = await send('GET', `${e.path}&limit=2&offset=${encodeURIComponent(offset)}`)
            const label = `${e.list} offset=${offset.slice(0, 30)}`
            for (const p of problems(res)) failures.push(`${label}: ${p}`)
            if (res.status !== 200) {
              failures.push(`${label}: status ${res.status}`)
              continue
            }
            if (JSON.stringify(res.body[e.list]) !== JSON.stringify(first.body[e.list]))
              failures.push(`${label}: not the first page`)
            if (
              e.warnings &&
              !res.body.warnings?.some((w: { code: string }) => w.code === 'INVALID_OFFSET')
            )
              failures.push(`${label}: no INVALID_OFFSET warning`)
          }
        }
        expect(failures).toEqual([])
      })

      test('error: a cursor with extra characters after its MAC is not honoured', async () => {
        // Issued cursors are `<payload>.<mac>` in canonical base64url. Node's base64 decoder stops
        // at the first character outside the alphabet and ignores the spare low bits of the last
        // character, so strings the server never issued decode to an issued MAC unless the
        // cursor is compared in its canonical form.
        const failures: string[] = []
        for (const e of lists()) {
          const first = await send('GET', `${e.path}&limit=1`)
          const own = first.body?.next_offset as string
          const mac = own.split('.')[1] ?? ''
          const last = mac.at(-1) ?? 'A'
          // Same 6-bit group but a different character: only the 4 spare bits differ.
          const sibling = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
          const index = sibling.indexOf(last)
          const twin = sibling[(index & ~0b1111) | ((index + 1) & 0b1111)] ?? last
          for (const offset of [
            `${own}.${own}`,
            `${own}!`,
            `${own}.x`,
            `${own.slice(0, -1)}${twin}`,
          ]) {
            const res = await send('GET', `${e.path}&limit=1&offset=${encodeURIComponent(offset)}`)
            if (JSON.stringify(res.body[e.list]) !== JSON.stringify(first.body[e.list]))
              failures.push(
                `${e.list} offset=<issued>${offset.slice(own.length - 1)}: served page 2`,
              )
          }
        }
        expect(failures).toEqual([])
      })

      test('behavior: a cursor from another wallet or other filters is not honoured', async () => {
        const other = indexed.world.wallets
          .find((w) => w.toLowerCase() !== valid.wallet)!
          .toLowerCase()
        const first = await send('GET', `/v1/evm/transactions/${other}?chain_ids=1&limit=1`)
        expect(first.status).toBe(200)
        const cursor = first.body.next_offset as string
        expect(typeof cursor).toBe('string')
        const mine = await send('GET', `/v1/evm/transactions/${valid.wallet}?chain_ids=1&limit=1`)
        const reused = await send(
          'GET',
          `/v1/evm/transactions/${valid.wallet}?chain_ids=1&limit=1&offset=${cursor}`,
        )
        expect(reused.body.transactions).toEqual(mine.body.transactions)
        expect(reused.body.warnings).toContainEqual(
          expect.objectContaining({ code: 'INVALID_OFFSET' }),
        )
        // The chain list is part of the query: chain 8453 is not served here, so `1,8453` is the
        // same query as `1` and the cursor stays valid.
        const widened = await send(
          'GET',
          `/v1/evm/transactions/${other}?chain_ids=1,8453&limit=1&offset=${cursor}`,
        )
        expect(widened.body.warnings).toEqual([
          expect.objectContaining({ code: 'UNSUPPORTED_CHAIN_IDS' }),
        ])
        const act = await send('GET', `/v1/evm/activity/${other}?chain_ids=1&limit=1`)
        const filtered = await send(
          'GET',
          `/v1/evm/activity/${other}?chain_ids=1&limit=1&activity_type=send&offset=${act.body.next_offset}`,
        )
        expect(filtered.status).toBe(200)
        expect(filtered.body.warnings).toContainEqual(
          expect.objectContaining({ code: 'INVALID_OFFSET' }),
        )
      })
    })

    /** Every path the API serves, as a concrete URL with its required parameters. */
    function allPaths(): string[] {
      return [
        '/health',
        '/ready',
        '/metrics',
        '/openapi.json',
        ...endpoints().map((e) => buildUrl(e, [])),
      ]
    }

    describe('methods, paths and bodies', () => {
      test('error: wrong methods on every path are 405 with Allow', async () => {
        const failures: string[] = []
        for (const path of allPaths()) {
          for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND']) {
            const res = await send(method, path, {
              ...(method === 'TRACE'
                ? {}
                : { headers: { 'content-type': 'application/json' }, body: '{}' }),
            })
            const label = `${method} ${path}`
            for (const p of problems(res)) failures.push(`${label}: ${p}`)
            if (res.status !== 405) failures.push(`${label}: status ${res.status}`)
            else if (!String(res.headers.allow).split(', ').includes('GET'))
              failures.push(`${label}: Allow ${res.headers.allow}`)
          }
          const head = await send('HEAD', path)
          if (head.status !== 200) failures.push(`HEAD ${path}: status ${head.status}`)
        }
        expect(failures).toEqual([])
      })

      test('error: unknown paths are 404 with the documented body', async () => {
        const failures: string[] = []
        const unknown = [
          '/',
          '/v1',
          '/v1/evm',
          '/v1/evm/balances',
          '/v1/evm/balances/',
          `/v1/evm/balances/${valid.wallet}/extra`,
          `/v1/evm/balances/${valid.wallet}/token`,
          `/v2/evm/balances/${valid.wallet}`,
          `/V1/EVM/BALANCES/${valid.wallet}`,
          `//v1/evm/balances/${valid.wallet}`,
          '/v1/evm/token-holders/1',
          '/v1/evm/../../etc/passwd',
          '/%2e%2e/%2e%2e/etc/passwd',
          `/${EMOJI}`,
          `/${RTL}`,
          '/%00',
          `/${'x/'.repeat(5000)}`,
          '/beta/svm/unknown/abc',
          '/v1/evm/subscriptions/abc/unknown',
        ]
        for (const path of unknown) {
          for (const key of [api.key, null]) {
            const res = await send('GET', path, { key })
            const label = `GET ${path.slice(0, 60)} key=${key !== null}`
            for (const p of problems(res)) failures.push(`${label}: ${p}`)
            if (res.status !== 404) failures.push(`${label}: status ${res.status}`)
            if (res.text.length > 1000) failures.push(`${label}: ${res.text.length}-byte body`)
          }
        }
        expect(failures).toEqual([])
      })

      test('error: a 2 MB body on every path is refused with a documented status', async () => {
        const failures: string[] = []
        const big = JSON.stringify({ x: 'x'.repeat(2 * 1024 * 1024) })
        const statuses = new Map<string, number>()
        for (const path of [...allPaths(), '/nope']) {
          for (const method of ['POST', 'PUT', 'GET']) {
            const res = await send(method, path, {
              headers: { 'content-type': 'application/json' },
              body: big,
            })
            const label = `${method} ${path}`
            statuses.set(label, res.status)
            for (const p of problems(res)) failures.push(`${label}: ${p}`)
            if (
              ![405, 413, 404, 400].includes(res.status) &&
              !(method === 'GET' && res.status === 200)
            )
              failures.push(`${label}: status ${res.status}`)
          }
        }
        console.info('2 MB body statuses:', Object.fromEntries(statuses))
        expect(failures).toEqual([])
      })
    })

    describe('keys, quota and rate', () => {
      const metered = () => endpoints().filter((e) => e.metered)

      test('error: missing, empty, wrong, oversized and revoked keys are 401', async () => {
        const revoked = await api.ctx.accounts.createKey({ name: 'revoked' })
        await api.ctx.accounts.revokeKey(revoked.info.id)
        const failures: string[] = []
        const cases: [string, string | null, string][] = [
          ['missing', null, 'missing API key'],
          ['empty', '', 'missing API key'],
          ['wrong', 'scry_nope', 'invalid API key'],
          [
            'almost',
            `${api.key.slice(0, -1)}${api.key.endsWith('x') ? 'y' : 'x'}`,
            'invalid API key',
          ],
          ['10 KB', KB10, 'invalid API key'],
          ['revoked', revoked.key, 'invalid API key'],
        ]
        for (const e of [...metered(), endpoints().find((x) => x.name === 'status')!]) {
          for (const [label, key, error] of cases) {
            const res = await send('GET', buildUrl(e, []), { key })
            for (const p of problems(res)) failures.push(`${e.name} ${label}: ${p}`)
            if (res.status !== 401 || res.body?.error !== error)
              failures.push(`${e.name} ${label}: ${res.status} ${res.text.slice(0, 100)}`)
          }
          // A bad request without a key is still 401: the key is checked first.
          const bad = await send('GET', `${buildPath(e, { address: 'nope' })}?limit=-1`, {
            key: null,
          })
          if (bad.status !== 401 && bad.status !== 404)
            failures.push(`${e.name} bad+nokey: ${bad.status}`)
        }
        for (const path of ['/health', '/v1/evm/supported-chains', '/openapi.json']) {
          const res = await send('GET', path, { key: null })
          for (const p of problems(res)) failures.push(`${path} public: ${p}`)
          if (res.status !== 200) failures.push(`${path} without a key: ${res.status}`)
        }
        expect(failures).toEqual([])
      })

      test('error: over quota is 402 with the documented body and nothing is charged', async () => {
        const { key, info } = await api.ctx.accounts.createKey({ name: 'no quota', cuQuota: 0 })
        const failures: string[] = []
        for (const e of metered()) {
          const res = await send('GET', buildUrl(e, []), { key })
          for (const p of problems(res)) failures.push(`${e.name}: ${p}`)
          if (res.status !== 402) failures.push(`${e.name}: status ${res.status}`)
          // Bad input is a 400 first: validation runs before metering.
          if (!e.pathParams.address) continue
          const bad = await send('GET', buildUrl(e, [], { address: '0x12' }), { key })
          if (bad.status !== 400) failures.push(`${e.name} bad input: status ${bad.status}`)
        }
        const free = await send('GET', '/v1/evm/supported-chains', { key })
        expect([free.status, free.headers['x-compute-units-cost']]).toEqual([200, '0'])
        expect(failures).toEqual([])

        // One unit left: a 1-unit request passes, a 3-unit one is refused, uncharged.
        const one = await api.ctx.accounts.createKey({ name: 'one unit', cuQuota: 1 })
        const activity = await send('GET', `/v1/evm/activity/${valid.wallet}?chain_ids=1`, {
          key: one.key,
        })
        expect([activity.status, activity.body]).toEqual([402, QUOTA_BODY])
        const tx = await send('GET', `/v1/evm/transactions/${valid.wallet}?chain_ids=1&limit=1`, {
          key: one.key,
        })
        expect([tx.status, tx.headers['x-compute-units-cost']]).toEqual([200, '1'])
        const again = await send(
          'GET',
          `/v1/evm/transactions/${valid.wallet}?chain_ids=1&limit=1`,
          {
            key: one.key,
          },
        )
        expect([again.status, again.body]).toEqual([402, QUOTA_BODY])

        await api.ctx.meter.flush()
        const usage = await t.store.db
          .selectFrom('usage')
          .select(['account_id', 'cu_used'])
          .where('account_id', 'in', [info.accountId, one.info.accountId])
          .execute()
        expect(usage).toEqual([{ account_id: one.info.accountId, cu_used: 1 }])
      })

      test('error: over the rate is 429 with Retry-After and X-RateLimit-*', async () => {
        const { key } = await api.ctx.accounts.createKey({ name: 'slow', rps: 1 })
        const path = `/v1/evm/transactions/${valid.wallet}?chain_ids=1&limit=1`
        const burst = await Promise.all(Array.from({ length: 8 }, () => send('GET', path, { key })))
        const failures = burst.flatMap((r) => problems(r))
        expect(failures).toEqual([])
        const limited = burst.filter((r) => r.status === 429)
        expect(limited.length).toBeGreaterThanOrEqual(6)
        expect(burst.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1)
        for (const r of burst) {
          expect(r.headers['x-ratelimit-limit']).toBe('1')
          expect(r.headers['x-ratelimit-remaining']).toMatch(/^\d+$/)
          expect(r.headers['x-ratelimit-reset']).toMatch(/^\d+$/)
        }
        for (const r of limited) {
          expect(r.headers['retry-after']).toMatch(/^\d+$/)
          expect(r.headers['x-ratelimit-remaining']).toBe('0')
          expect(r.headers['x-compute-units-cost']).toBeUndefined()
        }
      })
    })

    describe('malformed requests Fastify answers before the routes', () => {
      test('error: bad percent-encoding in a path is the documented 400 with X-Request-Id', async () => {
        const failures: string[] = []
        for (const bad of ['%ZZ', '%C0%AF', '%E0%A4%A', '%']) {
          for (const path of [
            `/v1/evm/balances/${bad}`,
            `/v1/evm/balances/${valid.wallet}${bad}`,
            `/v1/evm/token-holders/${bad}/${valid.token}`,
            `/nope/${bad}`,
          ]) {
            const res = await send('GET', path)
            for (const p of problems(res)) failures.push(`${path}: ${p}`)
            if (res.status !== 400 && res.status !== 404)
              failures.push(`${path}: status ${res.status}`)
          }
        }
        expect(failures).toEqual([])
      })

      test('error: a path parameter over the router limit is the documented 400', async () => {
        const failures: string[] = []
        for (const path of [
          `/v1/evm/balances/${KB10}`,
          `/v1/evm/activity/${'a'.repeat(501)}`,
          `/v1/evm/token-holders/1/${KB10}`,
        ]) {
          const res = await send('GET', path)
          for (const p of problems(res)) failures.push(`${path.slice(0, 40)}: ${p}`)
          if (res.status !== 400 && res.status !== 404)
            failures.push(`${path.slice(0, 40)}: status ${res.status}`)
          if (res.text.length > 1000)
            failures.push(`${path.slice(0, 40)}: echoes ${res.text.length} bytes`)
        }
        expect(failures).toEqual([])
      })

      test("error: a URL or headers past Node's 16 KB are a 431 in the documented shape with X-Request-Id", async () => {
        const long = `/v1/evm/balances/${valid.wallet}?chain_ids=1&x=${'a'.repeat(20_000)}`
        const res = await send('GET', long)
        expect([res.status, problems(res)]).toEqual([431, []])
        const headers = await send('GET', `/v1/evm/balances/${valid.wallet}?chain_ids=1`, {
          headers: { 'x-padding': 'b'.repeat(20_000) },
        })
        expect([headers.status, problems(headers)]).toEqual([431, []])
      })

      test('error: a request that is not HTTP is a 400 in the documented shape, and the server goes on', async () => {
        const url = new URL(api.url)
        const answer = await new Promise<string>((resolve, reject) => {
          const socket = connect(Number(url.port), url.hostname, () => {
            socket.write('HELLO THERE\r\n\r\n')
          })
          const chunks: Buffer[] = []
          socket.on('data', (c: Buffer) => chunks.push(c))
          socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')))
          socket.on('error', reject)
        })
        const [head = '', body = ''] = answer.split('\r\n\r\n')
        expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/)
        expect(head).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}(\r\n|$)/)
        expect(JSON.parse(body)).toEqual({
          error: { code: 'BAD_REQUEST', message: 'The request is not valid HTTP/1.1.' },
        })
        expect((await send('GET', '/health', { key: null })).status).toBe(200)
      })

      test('error: malformed JSON and odd content types on a GET path never 5xx', async () => {
        for (const [type, body] of [
          ['application/json', '{'],
          ['application/json', '\u0000'],
          ['text/plain', 'x'],
          ['application/x-www-form-urlencoded', 'a=1'],
          ['multipart/form-data; boundary=x', '--x--'],
        ] as const) {
          const res = await send('GET', `/v1/evm/balances/${valid.wallet}?chain_ids=1`, {
            headers: { 'content-type': type },
            body,
          })
          expect(problems(res), type).toEqual([])
        }
      })
    })

    describe('after all of it', () => {
      test('default: the server is healthy and no response broke the rules', async () => {
        const health = await send('GET', '/health', { key: null })
        expect([health.status, health.body]).toEqual([200, { status: 'ok' }])
        const ready = await send('GET', '/ready', { key: null })
        expect(ready.status).toBe(200)
        const broken = seen
          .filter(({ res }) => res.status >= 500 || STACK.test(res.text))
          .map(({ label, res }) => `${label}: ${res.status} ${res.text.slice(0, 100)}`)
        expect(broken).toEqual([])
        console.info(`${seen.length} requests checked`)
      })
    })
  })

describe('store failure', () => {
  test('error: a closed store answers the documented 500/503 body, never a stack', async () => {
    const dead = await createTestStore('sqlite')
    const broken = await createTestApi({
      store: dead.store,
      chains: [testChainConfig({ chainId: 1, rpc: ['http://127.0.0.1:1'] })],
    })
    try {
      const wallet = `0x${'a'.repeat(40)}`
      // Resolve the key once so that it is cached while the store goes away.
      const warm = await broken.get(`/v1/evm/balances/${wallet}?chain_ids=1`)
      expect(warm.status).toBe(200)
      await dead.store.close()
      const paths = [
        `/v1/evm/balances/${wallet}?chain_ids=1`,
        `/v1/evm/balances/${wallet}/stablecoins?chain_ids=1`,
        `/v1/evm/balances/${wallet}/token/native?chain_ids=1`,
        `/v1/evm/activity/${wallet}?chain_ids=1`,
        `/v1/evm/transactions/${wallet}?chain_ids=1`,
        `/v1/evm/collectibles/${wallet}?chain_ids=1`,
        `/v1/evm/token-info/${wallet}?chain_ids=1`,
        `/v1/evm/token-holders/1/${wallet}`,
        '/v1/status',
      ]
      const failures: string[] = []
      for (const path of paths) {
        const res = await broken.get(path)
        const text = JSON.stringify(res.body)
        if (![500, 503].includes(res.status)) failures.push(`${path}: status ${res.status}`)
        const code = res.status === 503 ? 'UNAVAILABLE' : 'INTERNAL_SERVER_ERROR'
        if (res.body?.error?.code !== code || typeof res.body?.error?.message !== 'string')
          failures.push(`${path}: body ${text.slice(0, 200)}`)
        if (res.status === 503 && !res.headers.get('retry-after'))
          failures.push(`${path}: no Retry-After`)
        if (STACK.test(text) || /destroyed|sqlite|kysely/i.test(text))
          failures.push(`${path}: internals in ${text.slice(0, 200)}`)
        if (!res.headers.get('x-request-id')) failures.push(`${path}: no X-Request-Id`)
      }
      const ready = await broken.get('/ready', { key: null })
      expect([ready.status, ready.body?.error?.code]).toEqual([503, 'UNAVAILABLE'])
      expect(ready.headers.get('retry-after')).toBeTruthy()
      const health = await broken.get('/health', { key: null })
      expect(health.status).toBe(200)
      expect(failures).toEqual([])
    } finally {
      await broken.app.close()
      await dead.drop().catch(() => {})
    }
  })

  test('error: PostgreSQL going away is 503 UNAVAILABLE with Retry-After, never a stack', async () => {
    const database = await createTestDatabase('postgres')
    const target = new URL(database.url)
    // A TCP hop between the API and PostgreSQL that can be cut, as a network or server outage.
    const sockets = new Set<Socket>()
    const hop = createServer((client) => {
      const upstream = connect(Number(target.port || 5432), target.hostname)
      for (const s of [client, upstream]) {
        sockets.add(s)
        s.on('error', () => {})
        s.on('close', () => sockets.delete(s))
      }
      client.pipe(upstream).pipe(client)
      client.on('close', () => upstream.destroy())
      upstream.on('close', () => client.destroy())
    })
    await new Promise<void>((resolve) => hop.listen(0, '127.0.0.1', resolve))
    const via = new URL(database.url)
    via.host = `127.0.0.1:${(hop.address() as AddressInfo).port}`
    const store = createStore({ url: via.toString() })
    await store.migrate()
    const broken = await createTestApi({
      store,
      chains: [testChainConfig({ chainId: 1, rpc: ['http://127.0.0.1:1'] })],
    })
    try {
      const wallet = `0x${'a'.repeat(40)}`
      const warm = await broken.get(`/v1/evm/transactions/${wallet}?chain_ids=1`)
      expect(warm.status).toBe(200)
      hop.close()
      for (const s of sockets) s.destroy()
      const failures: string[] = []
      for (const path of [
        `/v1/evm/balances/${wallet}?chain_ids=1`,
        `/v1/evm/activity/${wallet}?chain_ids=1`,
        `/v1/evm/transactions/${wallet}?chain_ids=1`,
        `/v1/evm/collectibles/${wallet}?chain_ids=1`,
        `/v1/evm/token-info/${wallet}?chain_ids=1`,
        `/v1/evm/token-holders/1/${wallet}`,
        '/v1/status',
      ]) {
        const res = await broken.get(path)
        const text = JSON.stringify(res.body)
        if (res.status !== 503 || res.body?.error?.code !== 'UNAVAILABLE')
          failures.push(`${path}: ${res.status} ${text.slice(0, 160)}`)
        else if (!res.headers.get('retry-after')) failures.push(`${path}: no Retry-After`)
        if (STACK.test(text) || /ECONN|127\.0\.0\.1|postgres/i.test(text))
          failures.push(`${path}: internals in ${text.slice(0, 160)}`)
      }
      const ready = await broken.get('/ready', { key: null })
      expect(ready.status).toBe(503)
      expect(failures).toEqual([])
    } finally {
      await broken.app.close()
      await store.close().catch(() => {})
      await database.drop()
    }
  })
})
