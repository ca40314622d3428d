import type { Insertable } from 'kysely'
import type {
  ActivityRecord,
  ActivityType,
  AddressTransactionRecord,
  AssetType,
  Database,
  LogRecord,
  TransactionRecord,
  TransferKind,
  TransferRecord,
} from '../../store/schema.ts'
import { toU256 } from '../../store/u256.ts'
import { decodeLogs } from '../decode/decodeLog.ts'
import { decodePoolLog } from '../decode/decodePoolLog.ts'
import type { ChainBlock } from '../fetch/chainBlock.ts'
import type { Address, TokenEvent } from '../types.ts'
import { collectEvent, type Movement } from './collectEvent.ts'
import { findSwaps } from './findSwaps.ts'
import { emptyTouched, type Touched } from './touched.ts'
import { ZERO_ADDRESS } from './zeroAddress.ts'

export type HistoryRows = {
  blocks: Insertable<Database['blocks']>[]
  transactions: TransactionRecord[]
  logs: LogRecord[]
  addressTransactions: AddressTransactionRecord[]
  transfers: TransferRecord[]
  activity: ActivityRecord[]
}

/**
 * Pure: blocks in, history rows and the set of touched state out. No I/O; balances are read
 * afterwards for exactly what `touched` names.
 */
export function deriveHistory({
  chainId,
  blocks,
}: {
  chainId: number
  blocks: readonly ChainBlock[]
}): { rows: HistoryRows; touched: Touched } {
  const rows: HistoryRows = {
    blocks: [],
    transactions: [],
    logs: [],
    addressTransactions: [],
    transfers: [],
    activity: [],
  }
  const touched = emptyTouched()

  for (const block of blocks) {
    const blockNumber = Number(block.number)
    const time = block.timestamp
    let transferSeq = 0
    let activitySeq = 0
    rows.blocks.push({
      chain_id: chainId,
      number: blockNumber,
      hash: block.hash,
      parent_hash: block.parentHash,
      timestamp: time,
      miner: block.miner,
    })
    touched.native.add(block.miner)
    for (const address of block.withdrawals) touched.native.add(address)

    const internalByTx = new Map<number, Movement[]>()
    for (const t of block.internalTransfers ?? []) {
      const list = internalByTx.get(t.txIndex) ?? []
      list.push({
        kind: 'internal',
        token: null,
        from: t.from,
        to: t.to,
        tokenId: null,
        value: t.value,
      })
      internalByTx.set(t.txIndex, list)
    }

    for (const tx of block.transactions) {
      const involved = new Set<Address>([tx.from])
      if (tx.to) involved.add(tx.to)
      if (tx.contractAddress) involved.add(tx.contractAddress)
      touched.native.add(tx.from)
      if (tx.to) {
        touched.native.add(tx.to)
        touched.contracts.add(tx.to)
      }
      if (tx.contractAddress) touched.native.add(tx.contractAddress)

      rows.transactions.push({
        chain_id: chainId,
        block_number: blockNumber,
        tx_index: tx.index,
        hash: tx.hash,
        block_hash: block.hash,
        block_time: time,
        from_address: tx.from,
        to_address: tx.to,
        contract_address: tx.contractAddress,
        value: toU256(tx.value),
        nonce: tx.nonce,
        gas_price: toU256(tx.gasPrice),
        gas_used: toU256(tx.gasUsed),
        tx_type: tx.type,
        input: tx.input,
        success: tx.success ? 1 : 0,
      })
      const swapRecipients = new Set<Address>()
      const poolEmitters = new Set<Address>()
      let swapped = false
      for (const log of tx.logs) {
        const poolEvent = decodePoolLog(log)
        if (poolEvent?.kind === 'created') touched.poolCreations.push(poolEvent)
        else if (poolEvent) {
          touched.pools.set(poolEvent.pool, poolEvent.type)
          poolEmitters.add(poolEvent.pool)
          if (poolEvent.kind === 'swap' && tx.success) {
            swapped = true
            swapRecipients.add(poolEvent.recipient)
          }
        }
        rows.logs.push({
          chain_id: chainId,
          block_number: blockNumber,
          log_index: log.logIndex,
          tx_index: tx.index,
          address: log.address,
          topics: log.topics,
          data: log.data,
        })
        involved.add(log.address)
        touched.contracts.add(log.address)
      }

      // Movements in walk order: the call's own value, then traces, then logs.
      const movements: Movement[] = []
      const approvals: TokenEvent[] = []
      if (tx.success) {
        const target = tx.to ?? tx.contractAddress
        if (tx.value > 0n && target) {
          movements.push({
            kind: 'native',
            token: null,
            from: tx.from,
            to: target,
            tokenId: null,
            value: tx.value,
          })
        }
        for (const m of internalByTx.get(tx.index) ?? []) {
          movements.push(m)
          touched.native.add(m.from)
          touched.native.add(m.to)
          touched.contracts.add(m.to)
        }
      }
      for (const event of decodeLogs(tx.logs)) {
        const m = collectEvent({ event, tx, touched, blockNumber, time })
        if (m) movements.push(m)
        else approvals.push(event)
      }

      const txValue = toU256(tx.value)
      const itemsFor = new Set<Address>()
      // Every item is built with all its fields in one order: spreading `fields` over defaults
      // made V8 build each object the slow way (~20 µs an item, most of this function's time).
      const item = (address: Address, type: ActivityType, fields: Partial<ActivityRecord>) => {
        itemsFor.add(address)
        rows.activity.push({
          address,
          chain_id: chainId,
          block_number: blockNumber,
          seq: activitySeq++,
          block_time: time,
          tx_hash: tx.hash,
          tx_index: tx.index,
          type,
          asset_type: fields.asset_type ?? null,
          token_address: fields.token_address ?? null,
          from_address: fields.from_address ?? null,
          to_address: fields.to_address ?? null,
          value: fields.value ?? null,
          token_id: fields.token_id ?? null,
          spender: fields.spender ?? null,
          tx_from: tx.from,
          tx_to: tx.to,
          tx_value: txValue,
          function_selector: fields.function_selector ?? null,
          to_token_address: fields.to_token_address ?? null,
          to_value: fields.to_value ?? null,
          value_usd: null,
          transfer_seq: fields.transfer_seq ?? null,
        })
      }

      // A wallet's swap is one item; its legs are not also listed as sends and receives.
      // Pools are the recipients of a route's inner hops, not swappers themselves.
      for (const pool of poolEmitters) swapRecipients.delete(pool)
      const swaps = swapped
        ? findSwaps({ txFrom: tx.from, recipients: swapRecipients, movements })
        : []
      const swapLegs =
        swaps.length === 0
          ? NO_LEGS
          : new Set(
              swaps.flatMap((s) => [`${s.wallet}|${s.from.token}`, `${s.wallet}|${s.to.token}`]),
            )
      for (const s of swaps) {
        item(s.wallet, 'swap', {
          asset_type: s.from.token === null ? 'native' : 'erc20',
          token_address: s.from.token,
          value: toU256(s.from.value),
          to_token_address: s.to.token,
          to_value: toU256(s.to.value),
          from_address: s.wallet,
          to_address: tx.to,
        })
      }

      for (const m of movements) {
        involved.add(m.from)
        involved.add(m.to)
        const seq = transferSeq++
        const value = toU256(m.value)
        const tokenId = m.tokenId === null ? null : toU256(m.tokenId)
        rows.transfers.push({
          chain_id: chainId,
          block_number: blockNumber,
          seq,
          tx_index: tx.index,
          tx_hash: tx.hash,
          block_time: time,
          kind: m.kind,
          token: m.token,
          from_address: m.from,
          to_address: m.to,
          token_id: tokenId,
          value,
        })
        const fields = {
          asset_type: assetType(m.kind),
          token_address: m.token,
          from_address: m.from,
          to_address: m.to,
          value,
          token_id: tokenId,
          transfer_seq: seq,
        }
        if (m.token !== null && m.from === ZERO_ADDRESS) {
          if (!isLeg(swapLegs, m.to, m.token)) item(m.to, 'mint', fields)
        } else if (m.token !== null && m.to === ZERO_ADDRESS) {
          if (!isLeg(swapLegs, m.from, m.token)) item(m.from, 'burn', fields)
        } else {
          if (!isLeg(swapLegs, m.from, m.token)) item(m.from, 'send', fields)
          if (!isLeg(swapLegs, m.to, m.token)) item(m.to, 'receive', fields)
        }
      }
      for (const event of approvals) {
        const fields = approvalItem(event)
        if (!fields) continue
        involved.add(fields.owner)
        involved.add(fields.spender)
        item(fields.owner, 'approve', {
          asset_type: fields.assetType,
          token_address: event.token,
          spender: fields.spender,
          value: toU256(fields.value),
          token_id: fields.tokenId === null ? null : toU256(fields.tokenId),
        })
      }
      // The sender's `call` item when nothing else names it: a call with calldata, a
      // deployment (to its new contract, no selector: the input is init code), or a failed
      // transaction of any kind. A failed one moved nothing, so its item's value is 0
      // (`tx_value` keeps what was sent).
      if ((tx.to === null || tx.input !== '0x' || !tx.success) && !itemsFor.has(tx.from)) {
        item(tx.from, 'call', {
          to_address: tx.to ?? tx.contractAddress,
          value: tx.success ? txValue : toU256(0n),
          function_selector: tx.to === null ? null : tx.input.slice(0, 10),
        })
      }

      involved.delete(ZERO_ADDRESS)
      for (const address of involved) {
        rows.addressTransactions.push({
          address,
          chain_id: chainId,
          block_number: blockNumber,
          tx_index: tx.index,
          block_time: time,
        })
      }
    }
  }
  touched.native.delete(ZERO_ADDRESS)
  return { rows, touched }
}

/** The swap legs of a transaction without swaps (most): no set made per transaction. */
const NO_LEGS: ReadonlySet<string> = new Set()

/** Whether `wallet`'s movement of `token` is a leg of one of its swaps (listed as the swap). */
function isLeg(legs: ReadonlySet<string>, wallet: Address, token: Address | null): boolean {
  return legs.size > 0 && legs.has(`${wallet}|${token}`)
}

function assetType(kind: TransferKind): AssetType {
  return kind === 'internal' ? 'native' : kind
}

function approvalItem(event: TokenEvent):
  | {
      owner: Address
      spender: Address
      value: bigint
      tokenId: bigint | null
      assetType: AssetType | null
    }
  | undefined {
  switch (event.type) {
    case 'erc20_approval':
      return {
        owner: event.owner,
        spender: event.spender,
        value: event.value,
        tokenId: null,
        assetType: 'erc20',
      }
    case 'erc721_approval':
      return {
        owner: event.owner,
        spender: event.approved,
        value: 1n,
        tokenId: event.tokenId,
        assetType: 'erc721',
      }
    case 'approval_for_all':
      return {
        owner: event.owner,
        spender: event.operator,
        value: event.approved ? 1n : 0n,
        tokenId: null,
        assetType: null,
      }
    default:
      return undefined
  }
}
