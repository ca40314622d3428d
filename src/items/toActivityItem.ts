import type { AbiRegistry } from '../evm/abi/createAbiRegistry.ts'
import type { ActivityRecord, Database } from '../store/schema.ts'
import { fromU256 } from '../store/u256.ts'
import { formatTime } from '../utils/formatTime.ts'

type ActivityRow = ActivityRecord
type TokenRow = Pick<Database['tokens'], 'name' | 'symbol' | 'decimals' | 'standard'>

export type TokenMetadata = {
  symbol?: string
  decimals?: number
  name?: string
  standard?: string
  price_usd?: number
  pool_size?: number
}

/** Current price of a token (or `native`) on the item's chain, if it has one. */
export type PriceOf = (asset: string) => { priceUsd: number; poolSizeUsd: number } | undefined

export type ActivityFunction = {
  /** 4-byte selector; always present, the only field when the selector is unknown. */
  selector: string
  signature?: string
  name?: string
  /** Values as text: arrays and tuples as JSON text (the published schema has strings). */
  inputs?: { name: string; type: string; value: string }[]
}

/** The `function` of a `call` item: its selector, and what the registry knows of it. */
export function describeCall({
  registry,
  selector,
  input,
}: {
  registry: AbiRegistry
  selector: string
  /** The transaction's calldata, when known. */
  input: string | undefined
}): ActivityFunction {
  const fn: ActivityFunction = { selector }
  const decoded = input === undefined ? undefined : registry.decodeCall(input)
  const known = decoded ?? registry.lookupFunction(selector)
  if (known) {
    fn.signature = known.signature
    fn.name = known.name
  }
  if (decoded) {
    fn.inputs = decoded.inputs.map((i) => ({
      ...i,
      value: typeof i.value === 'string' ? i.value : JSON.stringify(i.value),
    }))
  }
  return fn
}

export type ActivityItem = {
  chain_id: number
  block_number: number
  block_time: string
  tx_hash: string
  type: string
  asset_type?: string
  token_address?: string
  from?: string
  to?: string
  value?: string
  value_usd?: number
  token_metadata?: TokenMetadata
  from_token_address?: string
  from_token_value?: string
  from_token_metadata?: TokenMetadata
  to_token_address?: string
  to_token_value?: string
  to_token_metadata?: TokenMetadata
  id?: string
  spender?: string
  function?: ActivityFunction
  tx_from: string
  tx_to?: string
  tx_value: string
}

/** One activity row as the API shows it (spec/decisions.md "Activity"). */
export function toActivityItem({
  row,
  token,
  toToken,
  priceOf = () => undefined,
  fn,
}: {
  row: ActivityRow
  /** The token row when the item names a token. */
  token?: TokenRow | undefined
  /** Swaps: the token row of the side the wallet got. */
  toToken?: TokenRow | undefined
  priceOf?: PriceOf
  /** For `call` items. */
  fn?: ActivityFunction | undefined
}): ActivityItem {
  const item: ActivityItem = {
    chain_id: Number(row.chain_id),
    block_number: Number(row.block_number),
    block_time: formatTime(Number(row.block_time)),
    tx_hash: row.tx_hash,
    type: row.type,
    tx_from: row.tx_from,
    tx_value: fromU256(row.tx_value).toString(),
  }
  if (row.asset_type) item.asset_type = row.asset_type
  if (row.token_address) item.token_address = row.token_address
  // Approvals and calls are made by the wallet itself.
  const from =
    row.from_address ?? (row.type === 'approve' || row.type === 'call' ? row.address : null)
  if (from) item.from = from
  if (row.to_address) item.to = row.to_address
  if (row.value !== null) item.value = fromU256(row.value).toString()
  // Approvals indexed before 2026-11-28 carry allowance × price: not a value that moved.
  if (row.value_usd !== null && row.type !== 'approve') item.value_usd = row.value_usd
  if (token) item.token_metadata = tokenMetadata(token, priceOf(row.token_address ?? ''))
  if (row.type === 'swap') {
    item.from_token_address = row.token_address ?? 'native'
    if (row.value !== null) item.from_token_value = fromU256(row.value).toString()
    if (token) item.from_token_metadata = item.token_metadata!
    item.to_token_address = row.to_token_address ?? 'native'
    if (row.to_value !== null) item.to_token_value = fromU256(row.to_value).toString()
    if (toToken) item.to_token_metadata = tokenMetadata(toToken, priceOf(item.to_token_address))
  }
  if (row.token_id !== null && (row.asset_type === 'erc721' || row.asset_type === 'erc1155'))
    item.id = fromU256(row.token_id).toString()
  if (row.spender) item.spender = row.spender
  if (fn) item.function = fn
  if (row.tx_to) item.tx_to = row.tx_to
  return item
}

function tokenMetadata(
  token: TokenRow,
  price: { priceUsd: number; poolSizeUsd: number } | undefined,
): TokenMetadata {
  const out: TokenMetadata = {}
  if (token.symbol !== null) out.symbol = token.symbol
  if (token.decimals !== null) out.decimals = Number(token.decimals)
  if (token.name !== null) out.name = token.name
  if (price) {
    out.price_usd = price.priceUsd
    out.pool_size = price.poolSizeUsd
  }
  out.standard = token.standard.toUpperCase()
  return out
}
