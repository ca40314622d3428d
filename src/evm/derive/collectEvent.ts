import type { TransferKind } from '../../store/schema.ts'
import type { ChainTransaction } from '../fetch/chainBlock.ts'
import type { Address, TokenEvent } from '../types.ts'
import type { HolderFlow, Touched } from './touched.ts'
import { ZERO_ADDRESS } from './zeroAddress.ts'

/** One value movement before it becomes a transfer row and activity items. */
export type Movement = {
  kind: TransferKind
  token: Address | null
  from: Address
  to: Address
  tokenId: bigint | null
  value: bigint
}

/** Records a token event in `touched`; returns the movement it is, or undefined for approvals. */
export function collectEvent({
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
