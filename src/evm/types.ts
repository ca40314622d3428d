/**
 * Shared EVM types: what fetch hands to decode, what decode hands to derive.
 * Addresses inside Scry are always lowercase hex.
 */
export type Hex = `0x${string}`
export type Address = `0x${string}`

/** Position of a decoded item inside its block, for ordering and keys. */
export type EventPosition = {
  blockNumber: bigint
  txHash: Hex
  txIndex: number
  /** Log index within the block; for trace items, -1. */
  logIndex: number
  /** Index within a log that yields several items (ERC1155 TransferBatch); otherwise 0. */
  subIndex: number
}

/** A token event decoded from a log. `token` is the log's emitter. */
export type TokenEvent = EventPosition &
  (
    | { type: 'erc20_transfer'; token: Address; from: Address; to: Address; value: bigint }
    | { type: 'erc20_approval'; token: Address; owner: Address; spender: Address; value: bigint }
    | { type: 'erc721_transfer'; token: Address; from: Address; to: Address; tokenId: bigint }
    | {
        type: 'erc721_approval'
        token: Address
        owner: Address
        approved: Address
        tokenId: bigint
      }
    | {
        /** ERC721 and ERC1155 share this event; the standard comes from the token. */
        type: 'approval_for_all'
        token: Address
        owner: Address
        operator: Address
        approved: boolean
      }
    | {
        /** TransferSingle, or one element of TransferBatch (subIndex = position in the batch). */
        type: 'erc1155_transfer'
        token: Address
        operator: Address
        from: Address
        to: Address
        tokenId: bigint
        value: bigint
      }
    | { type: 'weth_deposit'; token: Address; to: Address; value: bigint }
    | { type: 'weth_withdrawal'; token: Address; from: Address; value: bigint }
  )

/** A value transfer inside a transaction (not the top-level call), from traces. */
export type InternalTransfer = {
  type: 'internal_transfer'
  blockNumber: bigint
  txHash: Hex
  txIndex: number
  /** Position in the call tree, e.g. "0.2.1"; unique within the transaction. */
  traceAddress: string
  /** CALL, CREATE, CREATE2, SELFDESTRUCT, ... (upper case). */
  callType: string
  from: Address
  to: Address
  value: bigint
}
