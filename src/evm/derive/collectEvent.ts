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
  tx: _tx,
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
    case 'weth_deposit':
    case 'weth_withdrawal': {
      // WETH Deposit/Withdrawal are a mint/burn of WETH.
      const from = event.type === 'weth_deposit' ? ZERO_ADDRESS : event.from
      const to = event.type === 'weth_withdrawal' ? ZERO_ADDRESS : event.to
      recordErc20({
        touched,
        token: event.token,
        from,
        to,
        value: event.value,
        blockNumber,
        time,
      })
      return { kind: 'erc20', token: event.token, from, to, tokenId: null, value: event.value }
    }
    case 'erc721_transfer':
    case 'erc1155_transfer': {
      const standard = event.type === 'erc721_transfer' ? 'erc721' : 'erc1155'
      const value = event.type === 'erc721_transfer' ? 1n : event.value
      setStandard(touched, event.token, standard)
      const { token, from, to, tokenId } = event
      touched.nftMoves.push({
        standard,
        contract: token,
        tokenId,
        from,
        to,
        value,
        block: blockNumber,
        time,
      })
      return { kind: standard, token, from, to, tokenId, value }
    }
    // Approvals become rows in `planApprovalChanges`.
    case 'erc20_approval':
      setStandard(touched, event.token, 'erc20')
      return undefined
    case 'approval_for_all':
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
  blockNumber,
  time,
}: {
  touched: Touched
  token: Address
  from: Address
  to: Address
  value: bigint
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
  // A transfer of nothing neither sends nor acquires: anyone may log `transferFrom(victim, me,
  // 0)`, and a wallet must not look as if it had sent or held the token for it (address
  // poisoning). The holder is still touched, so its balance is read again.
  if (from === ZERO_ADDRESS) supply.minted += value
  else {
    const f = flow(from)
    f.outflow += value
    if (value > 0n) f.sent = true
  }
  if (to === ZERO_ADDRESS) supply.burned += value
  else {
    const f = flow(to)
    f.inflow += value
    if (value > 0n) f.firstIn ??= { block: blockNumber, time }
  }
}
