import type { Decoded } from '../../evm/abi/createAbiRegistry.ts'
import type { Database } from '../../store/schema.ts'
import { fromU256 } from '../../store/u256.ts'
import { formatTime } from '../params.ts'

type ActivityRow = Database['activity']
type TokenRow = Pick<Database['tokens'], 'name' | 'symbol' | 'decimals' | 'standard'>

export type TokenMetadata = { symbol?: string; decimals?: number; name?: string; standard?: string }

export type ActivityFunction = {
  /** 4-byte selector; always present, the only field when the selector is unknown. */
  selector: string
  signature?: string
  name?: string
  inputs?: Decoded['inputs']
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
  token_metadata?: TokenMetadata
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
  fn,
}: {
  row: ActivityRow
  /** The token row when the item names a token. */
  token?: TokenRow | undefined
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
  if (token) item.token_metadata = tokenMetadata(token)
  if (row.token_id !== null && (row.asset_type === 'erc721' || row.asset_type === 'erc1155'))
    item.id = fromU256(row.token_id).toString()
  if (row.spender) item.spender = row.spender
  if (fn) item.function = fn
  if (row.tx_to) item.tx_to = row.tx_to
  return item
}

function tokenMetadata(token: TokenRow): TokenMetadata {
  const out: TokenMetadata = {}
  if (token.symbol !== null) out.symbol = token.symbol
  if (token.decimals !== null) out.decimals = Number(token.decimals)
  if (token.name !== null) out.name = token.name
  out.standard = token.standard.toUpperCase()
  return out
}
