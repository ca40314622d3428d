import type { Generated } from 'kysely'

/**
 * Row types of every table. Conventions:
 * - uint256 columns hold `toU256` text (see u256.ts); booleans are 0/1 integers on both dialects.
 * - Wallet-scoped tables start their key with (address, chain_id) so they can later be sharded
 *   by wallet (DESIGN.md, Storage).
 * - `block_number` and times are plain numbers (block numbers and unix seconds stay far below 2^53).
 */
export type Database = {
  checkpoints: CheckpointTable
  blocks: BlockTable
  transactions: TransactionTable
  address_transactions: AddressTransactionTable
  transfers: TransferTable
  activity: ActivityTable
  native_balances: NativeBalanceTable
  token_balances: TokenBalanceTable
  nft_holdings: NftHoldingTable
  tokens: TokenTable
  approvals: ApprovalTable
  undo_log: UndoLogTable
  accounts: AccountTable
  api_keys: ApiKeyTable
  usage: UsageTable
  abis: AbiTable
  nft_metadata: NftMetadataTable
  pools: PoolTable
  token_prices: TokenPriceTable
  token_price_hours: TokenPriceHourTable
  webhook_subscriptions: WebhookSubscriptionTable
  webhook_version: WebhookVersionTable
  webhook_deliveries: WebhookDeliveryTable
  svm_tokens: SvmTokenTable
  svm_prices: SvmPriceTable
  svm_transactions: SvmTransactionTable
  token_holder_counts: TokenHolderCountTable
  indexer_leases: IndexerLeaseTable
  defi_tokens: DefiTokenTable
  defi_token_probes: DefiTokenProbeTable
}

/** Who writes each chain (PostgreSQL standby indexers, migration 0010). */
export type IndexerLeaseTable = {
  chain_id: number
  /** The holder's token, new each time a process takes the chain. */
  owner: string
  host: string
  pid: number
  /** Unix seconds when it took the chain. */
  since: number
  /** The node's head as the holder last saw it, and when (unix seconds). */
  node_head: number | null
  node_head_at: number | null
  /** Why the holder stopped indexing the chain (a reorg past finality; 0026); null while it runs. */
  stopped: string | null
}

/** Kept by triggers on `token_balances` (migration 0007); never written by code. */
export type TokenHolderCountTable = {
  chain_id: number
  token: string
  /** Holders with a non-zero balance. */
  holders: number
  /** Holders that ever sent the token. */
  senders: number
}

export type AbiTable = {
  name: string
  abi: string
  created_at: number
}

export type NftMetadataTable = {
  chain_id: number
  contract: string
  token_id: string
  uri: string | null
  name: string | null
  description: string | null
  image_url: string | null
  attributes: string | null
  status: 'pending' | 'ok' | 'error'
  error: string | null
  attempts: number
  next_attempt_at: number
  fetched_at: number | null
}

export type AccountTable = {
  id: string
  name: string
  cu_quota: number | null
  created_at: number
}

export type ApiKeyTable = {
  id: string
  account_id: string
  name: string
  key_hash: string
  rps: number | null
  created_at: number
  revoked_at: number | null
  /** Response profile (`default`, `sim`); null = the server's default. */
  profile: string | null
}

export type UsageTable = {
  account_id: string
  period: string
  cu_used: number
}

export type CheckpointTable = {
  chain_id: number
  block_number: number
  block_hash: string
  updated_at: number
}

export type BlockTable = {
  chain_id: number
  number: number
  hash: string
  parent_hash: string
  timestamp: number
  miner: string
}

/** A transaction as the indexer derives it and the API and webhooks read it. */
export type TransactionRecord = {
  chain_id: number
  block_number: number
  tx_index: number
  hash: string
  block_hash: string
  block_time: number
  from_address: string
  to_address: string | null
  contract_address: string | null
  value: string
  nonce: number
  gas_price: string
  gas_used: string
  tx_type: number
  input: string
  success: number
}

/**
 * Stored transactions: hashes (migration 0014) and addresses (0017) as bytes
 * (`toStoredTransaction`); the block's hash and time are the block's (`blocks`, migration
 * 0021); the transaction's logs in one column (`packLogs`, migration 0022); calldata and
 * logs in packed words (`packCalldata`, `packLogs`, migration 0023). On PostgreSQL
 * `tx_index` is `integer` and `tx_type` and `success` `smallint` (0024), as `activity`'s and
 * `transfers`' positions within a block.
 */
export type TransactionTable = Omit<
  TransactionRecord,
  | 'hash'
  | 'block_hash'
  | 'block_time'
  | 'input'
  | 'from_address'
  | 'to_address'
  | 'contract_address'
> & {
  hash: Uint8Array
  input: Uint8Array
  from_address: Uint8Array
  to_address: Uint8Array | null
  contract_address: Uint8Array | null
  logs: Uint8Array
}

/** A log as the indexer derives it and the API and webhooks read it. */
export type LogRecord = {
  chain_id: number
  block_number: number
  log_index: number
  tx_index: number
  address: string
  /** 32-byte topics, as hex. */
  topics: readonly string[]
  data: string
}

/** A transaction an address took part in, as the indexer derives it. */
export type AddressTransactionRecord = {
  address: string
  chain_id: number
  block_number: number
  tx_index: number
  block_time: number
}

/**
 * Stored: the address as bytes (migration 0017), and only pairs the address has no activity
 * item in (0019, `addressTransactionsToStore`).
 */
export type AddressTransactionTable = Omit<AddressTransactionRecord, 'address'> & {
  address: Uint8Array
}

export type TransferKind = 'native' | 'internal' | 'erc20' | 'erc721' | 'erc1155'

/** A transfer as the indexer derives it; the store keeps `TransferTable` (no tx hash or time). */
export type TransferRecord = {
  chain_id: number
  block_number: number
  /** Order of the transfer within its block (walk order: tx, then native, traces, logs). */
  seq: number
  tx_index: number
  tx_hash: string
  block_time: number
  kind: TransferKind
  token: string | null
  from_address: string
  to_address: string
  token_id: string | null
  value: string
}

/**
 * Stored transfers: the hash and time are the transaction's (join on chain, block, tx_index);
 * addresses as bytes (migration 0017).
 */
export type TransferTable = Omit<
  TransferRecord,
  'tx_hash' | 'block_time' | 'token' | 'from_address' | 'to_address'
> & {
  token: Uint8Array | null
  from_address: Uint8Array
  to_address: Uint8Array
}

export type ActivityType = 'send' | 'receive' | 'mint' | 'burn' | 'approve' | 'call' | 'swap'
export type AssetType = 'native' | 'erc20' | 'erc721' | 'erc1155'

/**
 * An activity item as the indexer derives it and the API and webhooks read it
 * (`selectActivity` rebuilds it from the stored row, its transaction and its transfer).
 */
export type ActivityRecord = {
  address: string
  chain_id: number
  block_number: number
  seq: number
  block_time: number
  tx_hash: string
  tx_index: number
  type: ActivityType
  asset_type: AssetType | null
  token_address: string | null
  from_address: string | null
  to_address: string | null
  value: string | null
  token_id: string | null
  spender: string | null
  tx_from: string
  tx_to: string | null
  tx_value: string
  /** 4-byte selector of the transaction's call, for `call` items. */
  function_selector: string | null
  /** Swap items: the token the wallet got (null: the native asset) and how much. */
  to_token_address: string | null
  to_value: string | null
  /** USD value of `value` at the prices of the batch that indexed the block. */
  value_usd: number | null
  /** Send, receive, mint and burn items: the `seq` of their transfer in the same block. */
  transfer_seq: number | null
}

/**
 * Stored activity (migration 0012): the transaction's fields live in `transactions`, and an
 * item made of one transfer names it by `transfer_seq` and leaves the transfer's fields null
 * (`toStoredActivity`); `asset_type` stays, the API filters on it. Key: the API's scan order.
 */
export type ActivityTable = Omit<
  ActivityRecord,
  'tx_hash' | 'tx_from' | 'tx_to' | 'tx_value' | ActivityAddressField
> & { address: Uint8Array } & { [K in Exclude<ActivityAddressField, 'address'>]: Uint8Array | null }

/** Activity columns that hold addresses, stored as bytes (migration 0017). */
export type ActivityAddressField =
  | 'address'
  | 'token_address'
  | 'from_address'
  | 'to_address'
  | 'spender'
  | 'to_token_address'

export type NativeBalanceTable = {
  address: string
  chain_id: number
  balance: string
  block_number: number
}

export type TokenBalanceTable = {
  address: string
  chain_id: number
  token: string
  balance: string
  /** Time of the first inbound transfer; null until there is one. */
  first_acquired_time: number | null
  first_acquired_block: number | null
  has_initiated_transfer: number
  block_number: number
}

export type NftStandard = 'erc721' | 'erc1155'

export type NftHoldingTable = {
  address: string
  chain_id: number
  contract: string
  token_id: string
  standard: NftStandard
  balance: string
  last_acquired_time: number
  last_acquired_block: number
}

/** What a token is to DeFi positions (migration 0011); a state table, undone on reorgs. */
/**
 * `erc4626`: a vault whose shares are this token; `aave_v3_atoken`, `aave_v3_vdebt`,
 * `aave_v2_atoken`, `aave_v2_vdebt`: an Aave V3 or V2 aToken or variable debt token, as its
 * pool's `getReserveData` says.
 */
export type DefiTokenKind =
  | 'erc4626'
  | 'aave_v3_atoken'
  | 'aave_v3_vdebt'
  | 'aave_v2_atoken'
  | 'aave_v2_vdebt'

export type DefiTokenTable = {
  chain_id: number
  address: string
  kind: DefiTokenKind
  /** The vault's `asset()`, the Aave token's `UNDERLYING_ASSET_ADDRESS()`. */
  underlying: string | null
  /** The Aave pool the token names (`POOL()`, migration 0016); null for vaults. */
  pool: string | null
  /** Block of the batch (or of the checkpoint, for the one-time probe) that found it. */
  block_number: number
}

/** Tokens stored before migration 0011, not yet probed (`probeStoredTokens`). */
export type DefiTokenProbeTable = { chain_id: number; address: string }

export type TokenStandard = 'erc20' | 'erc721' | 'erc1155'

export type TokenTable = {
  chain_id: number
  address: string
  standard: TokenStandard
  name: string | null
  symbol: string | null
  decimals: number | null
  total_supply: string | null
  /** 1 when balances move without Transfer events (rebasing): every holder is re-read. */
  rebasing: number
  first_block: number
  block_number: number
}

/** `erc20`: allowance on the token; `operator`: ApprovalForAll (ERC721/ERC1155); `permit2`: allowance through the Permit2 contract. */
export type ApprovalKind = 'erc20' | 'operator' | 'permit2'

export type ApprovalTable = {
  owner: string
  chain_id: number
  /** The token (for `permit2`: the token Permit2 may move, not Permit2 itself). */
  token: string
  spender: string
  kind: ApprovalKind
  /** ERC20 and Permit2: the allowance as the node reads it; operator approvals: 1. */
  allowance: string
  /** Block of the batch that last wrote the row. */
  block_number: number
  /** The approval event that set it (a transferFrom that spends it keeps these). */
  approved_block: number | null
  approved_time: number | null
  tx_hash: string | null
  /** Permit2 only: unix seconds after which the allowance cannot be used. */
  expiration: number | null
}

export type UndoLogTable = {
  id: Generated<number>
  chain_id: number
  /** First and last block of the batch that made the change. */
  from_block: number
  to_block: number
  table_name: string
  /** JSON of the row's key columns. */
  row_key: string
  /** JSON of the row before the change; null when the row did not exist. */
  prev: string | null
}

export type PoolTable = {
  chain_id: number
  address: string
  type: 'uniswap_v2' | 'uniswap_v3'
  /** 1 when a configured factory vouches for the pool; only those set prices. */
  trusted: number
  factory: string | null
  token0: string | null
  token1: string | null
  fee: number | null
  /** V2: reserves; V3: the pool's token balances. */
  reserve0: string | null
  reserve1: string | null
  sqrt_price_x96: string | null
  tick: number | null
  liquidity: string | null
  block_number: number
}

/**
 * A token's price relative to its route's parent (migration 0018): USD = the parent's USD
 * price × `price`, resolved up to a row without a parent (`resolvePrices`).
 */
export type TokenPriceTable = {
  chain_id: number
  token: string
  /** The other token of `pool`; null: `price` is in USD (an anchor, or a row from before 0018). */
  parent: string | null
  price: number
  /** Pool the price comes from; null for a USD anchor. */
  pool: string | null
  /** The pool's reserves in the parent's units (USD without a parent). */
  pool_size: number
  /** The pool's reserves in USD when the row was written (search ranks tokens by it). */
  pool_size_usd: number
  block_number: number
  block_time: number
}

export type TokenPriceHourTable = {
  chain_id: number
  token: string
  /** Start of the hour, unix seconds. */
  hour: number
  /** As in `token_prices`: the hour's last price, in the parent's units (null: USD). */
  parent: string | null
  price: number
  block_time: number
}
export type WebhookSubscriptionTable = {
  id: string
  account_id: string
  name: string | null
  type: 'balances' | 'activities' | 'transactions'
  webhook_url: string
  secret: string
  active: number
  /** JSON array of chain ids. */
  chain_ids: string
  /** JSON array of lowercase addresses. */
  addresses: string
  /** JSON object: activity_type, asset_type, token_address, transaction_type, counterparty. */
  filters: string
  created_at: number
  updated_at: number
}

export type WebhookVersionTable = { id: number; version: number }

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled'

export type WebhookDeliveryTable = {
  seq: Generated<number>
  id: string
  subscription_id: string
  account_id: string
  chain_id: number
  block_number: number
  type: string
  payload: string
  event_count: number
  removed: number
  reverted: number
  status: WebhookDeliveryStatus
  attempts: number
  next_attempt_at: number
  first_attempt_at: number | null
  last_attempt_at: number | null
  last_status: number | null
  last_error: string | null
  delivered_at: number | null
  created_at: number
}

export type SvmTokenTable = {
  chain: string
  mint: string
  program_id: string
  decimals: number
  supply: string
  mint_authority: string | null
  name: string | null
  symbol: string | null
  uri: string | null
  metadata_address: string | null
  refreshed_at: number
}

export type SvmPriceTable = {
  chain: string
  mint: string
  price_usd: number | null
  liquidity_usd: number | null
  pool_type: string | null
  pool_address: string | null
  refreshed_at: number
}

export type SvmTransactionTable = {
  chain: string
  signature: string
  slot: number
  block_time: number | null
  raw: string
}
