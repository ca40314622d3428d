import type { HistoryRows } from '../evm/derive/deriveHistory.ts'

/** `position`: the transaction's index in the block (the block's fee payment: after all). */
export type Movement = {
  block: number
  position: number
  txHash: string
  counterparty: string | undefined
}

/**
 * For each subscribed (address, asset) pair, keyed `address|asset` (asset: token or `native`),
 * the blocks of the batch that moved it and the block's last movement: the latest transaction
 * in the block that sent from it or transferred to or from it, whichever kind of row names it
 * (the same transaction's later rows win); a block's fee payment to its miner comes last.
 */
export function findBalanceMovements({
  rows,
  subscribed,
}: {
  rows: Pick<HistoryRows, 'transfers' | 'transactions' | 'blocks'>
  subscribed: ReadonlySet<string>
}): Map<string, Map<number, Movement>> {
  const moves = new Map<string, Map<number, Movement>>()
  const note = (address: string, asset: string, move: Movement) => {
    if (!subscribed.has(address)) return
    const key = `${address}|${asset}`
    let byBlock = moves.get(key)
    if (!byBlock) {
      byBlock = new Map()
      moves.set(key, byBlock)
    }
    const seen = byBlock.get(move.block)
    if (!seen || move.position >= seen.position) byBlock.set(move.block, move)
  }
  for (const tx of rows.transactions) {
    const block = Number(tx.block_number)
    note(tx.from_address, 'native', {
      block,
      position: tx.tx_index,
      txHash: tx.hash,
      counterparty: tx.to_address ?? tx.contract_address ?? undefined,
    })
  }
  for (const t of rows.transfers) {
    const asset =
      t.kind === 'native' || t.kind === 'internal'
        ? 'native'
        : t.kind === 'erc20'
          ? (t.token ?? null)
          : null
    if (asset === null) continue
    const block = Number(t.block_number)
    const position = t.tx_index
    note(t.from_address, asset, { block, position, txHash: t.tx_hash, counterparty: t.to_address })
    note(t.to_address, asset, { block, position, txHash: t.tx_hash, counterparty: t.from_address })
  }
  for (const b of rows.blocks) {
    const block = Number(b.number)
    note(b.miner, 'native', { block, position: Infinity, txHash: '', counterparty: undefined })
  }
  return moves
}
