import type { Insertable } from 'kysely'
import type { ActivityType, AssetType, Database, TransferKind } from '../../store/schema.ts'
import { toU256 } from '../../store/u256.ts'
import { decodeLogs } from '../decode/decodeLog.ts'
import type { ChainBlock, ChainTransaction } from '../fetch/chainBlock.ts'
import type { Address, TokenEvent } from '../types.ts'
import { emptyTouched, type HolderFlow, type Touched } from './touched.ts'

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000' as Address

export type HistoryRows = {
  blocks: Insertable<Database['blocks']>[]
  transactions: Insertable<Database['transactions']>[]
  logs: Insertable<Database['logs']>[]
  addressTransactions: Insertable<Database['address_transactions']>[]
  transfers: Insertable<Database['transfers']>[]
  activity: Insertable<Database['activity']>[]
}

/** One value movement before it becomes a transfer row and activity items. */
type Movement = {
  kind: TransferKind
  token: Address | null
  from: Address
  to: Address
  tokenId: bigint | null
  value: bigint
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
      for (const log of tx.logs) {
        rows.logs.push({
          chain_id: chainId,
          block_number: blockNumber,
          log_index: log.logIndex,
          tx_index: tx.index,
          address: log.address,
          topics: JSON.stringify(log.topics),
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

      const base = {
        chain_id: chainId,
        block_number: blockNumber,
        block_time: time,
        tx_hash: tx.hash,
        tx_index: tx.index,
        tx_from: tx.from,
        tx_to: tx.to,
        tx_value: toU256(tx.value),
      }
      const itemsFor = new Set<Address>()
      const item = (
        address: Address,
        type: ActivityType,
        fields: Partial<Insertable<Database['activity']>>,
      ) => {
        itemsFor.add(address)
        rows.activity.push({
          ...base,
          address,
          seq: activitySeq++,
          type,
          asset_type: null,
          token_address: null,
          from_address: null,
          to_address: null,
          value: null,
          token_id: null,
          spender: null,
          function_selector: null,
          ...fields,
        })
      }

      for (const m of movements) {
        involved.add(m.from)
        involved.add(m.to)
        rows.transfers.push({
          chain_id: chainId,
          block_number: blockNumber,
          seq: transferSeq++,
          tx_index: tx.index,
          tx_hash: tx.hash,
          block_time: time,
          kind: m.kind,
          token: m.token,
          from_address: m.from,
          to_address: m.to,
          token_id: m.tokenId === null ? null : toU256(m.tokenId),
          value: toU256(m.value),
        })
        const fields = {
          asset_type: assetType(m.kind),
          token_address: m.token,
          from_address: m.from,
          to_address: m.to,
          value: toU256(m.value),
          token_id: m.tokenId === null ? null : toU256(m.tokenId),
        }
        if (m.token !== null && m.from === ZERO_ADDRESS) item(m.to, 'mint', fields)
        else if (m.token !== null && m.to === ZERO_ADDRESS) item(m.from, 'burn', fields)
        else {
          item(m.from, 'send', fields)
          item(m.to, 'receive', fields)
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
      if (tx.to && tx.input !== '0x' && !itemsFor.has(tx.from)) {
        item(tx.from, 'call', {
          to_address: tx.to,
          value: toU256(tx.value),
          function_selector: tx.input.slice(0, 10),
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

function assetType(kind: TransferKind): AssetType {
  return kind === 'internal' ? 'native' : kind
}

/** Records a token event in `touched`; returns the movement it is, or undefined for approvals. */
function collectEvent({
  event,
  tx,
  touched,
  blockNumber,
  time,
}: {
  event: TokenEvent
  tx: ChainTransaction
  touched: Touched
  blockNumber: number
  time: number
}): Movement | undefined {
  switch (event.type) {
    case 'erc20_transfer':
      recordErc20({
        touched,
        token: event.token,
        from: event.from,
        to: event.to,
        value: event.value,
        tx,
        blockNumber,
        time,
      })
      return {
        kind: 'erc20',
        token: event.token,
        from: event.from,
        to: event.to,
        tokenId: null,
        value: event.value,
      }
    case 'weth_deposit':
      recordErc20({
        touched,
        token: event.token,
        from: ZERO_ADDRESS,
        to: event.to,
        value: event.value,
        tx,
        blockNumber,
        time,
      })
      return {
        kind: 'erc20',
        token: event.token,
        from: ZERO_ADDRESS,
        to: event.to,
        tokenId: null,
        value: event.value,
      }
    case 'weth_withdrawal':
      recordErc20({
        touched,
        token: event.token,
        from: event.from,
        to: ZERO_ADDRESS,
        value: event.value,
        tx,
        blockNumber,
        time,
      })
      return {
        kind: 'erc20',
        token: event.token,
        from: event.from,
        to: ZERO_ADDRESS,
        tokenId: null,
        value: event.value,
      }
    case 'erc721_transfer':
      setStandard(touched, event.token, 'erc721')
      touched.nftMoves.push({
        standard: 'erc721',
        contract: event.token,
        tokenId: event.tokenId,
        from: event.from,
        to: event.to,
        value: 1n,
        block: blockNumber,
        time,
      })
      return {
        kind: 'erc721',
        token: event.token,
        from: event.from,
        to: event.to,
        tokenId: event.tokenId,
        value: 1n,
      }
    case 'erc1155_transfer':
      setStandard(touched, event.token, 'erc1155')
      touched.nftMoves.push({
        standard: 'erc1155',
        contract: event.token,
        tokenId: event.tokenId,
        from: event.from,
        to: event.to,
        value: event.value,
        block: blockNumber,
        time,
      })
      return {
        kind: 'erc1155',
        token: event.token,
        from: event.from,
        to: event.to,
        tokenId: event.tokenId,
        value: event.value,
      }
    case 'erc20_approval':
      setStandard(touched, event.token, 'erc20')
      touched.allowances.set(`${event.owner}|${event.token}|${event.spender}`, {
        owner: event.owner,
        token: event.token,
        spender: event.spender,
      })
      return undefined
    case 'approval_for_all':
      touched.operators.set(`${event.owner}|${event.token}|${event.operator}`, {
        owner: event.owner,
        token: event.token,
        operator: event.operator,
        approved: event.approved,
      })
      return undefined
    case 'erc721_approval':
      setStandard(touched, event.token, 'erc721')
      return undefined
    default: {
      const never: never = event
      throw new Error(`unhandled event ${JSON.stringify(never)}`)
    }
  }
}

function setStandard(touched: Touched, token: Address, standard: 'erc20' | 'erc721' | 'erc1155') {
  if (!touched.standards.has(token)) touched.standards.set(token, standard)
}

function recordErc20({
  touched,
  token,
  from,
  to,
  value,
  tx,
  blockNumber,
  time,
}: {
  touched: Touched
  token: Address
  from: Address
  to: Address
  value: bigint
  tx: ChainTransaction
  blockNumber: number
  time: number
}) {
  setStandard(touched, token, 'erc20')
  let holders = touched.erc20.get(token)
  if (!holders) {
    holders = new Map()
    touched.erc20.set(token, holders)
  }
  const flow = (address: Address): HolderFlow => {
    let f = holders.get(address)
    if (!f) {
      f = { inflow: 0n, outflow: 0n, firstIn: undefined, sent: false }
      holders.set(address, f)
    }
    return f
  }
  const supply = touched.supplyFlow.get(token) ?? { minted: 0n, burned: 0n }
  touched.supplyFlow.set(token, supply)
  if (from === ZERO_ADDRESS) supply.minted += value
  else {
    const f = flow(from)
    f.outflow += value
    f.sent = true
    if (from !== tx.from) touched.spentBy.set(`${from}|${token}`, { owner: from, token })
  }
  if (to === ZERO_ADDRESS) supply.burned += value
  else {
    const f = flow(to)
    f.inflow += value
    f.firstIn ??= { block: blockNumber, time }
  }
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
