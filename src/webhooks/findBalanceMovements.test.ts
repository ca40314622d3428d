import { expect, test } from 'vitest'
import { findBalanceMovements } from './findBalanceMovements.ts'

const A0 = '0x00000000000000000000000000000000000000a0'
const A1 = '0x00000000000000000000000000000000000000a1'
const A2 = '0x00000000000000000000000000000000000000a2'
const TOKEN = '0x00000000000000000000000000000000000000t0'
const MINER = '0x00000000000000000000000000000000000000m0'

const tx = (index: number, from: string, to: string) => ({
  block_number: 246,
  tx_index: index,
  hash: `0xtx${index}`,
  from_address: from,
  to_address: to,
  contract_address: null,
})
const transfer = (index: number, kind: string, from: string, to: string, token?: string) => ({
  block_number: 246,
  tx_index: index,
  tx_hash: `0xtx${index}`,
  kind,
  from_address: from,
  to_address: to,
  token: token ?? null,
})

test("behavior: the block's last transaction that moved a balance names it, whatever row saw it first", () => {
  // Block 246: tx0 A0 → A1 (1 ETH), tx1 A2 → A1 (2 ETH), tx2 A1 sends a token (pays gas).
  const rows = {
    transactions: [tx(0, A0, A1), tx(1, A2, A1), tx(2, A1, TOKEN)],
    transfers: [
      transfer(0, 'native', A0, A1),
      transfer(1, 'native', A2, A1),
      transfer(2, 'erc20', A1, A2, TOKEN),
    ],
    blocks: [{ number: 246, miner: MINER }],
  } as never
  const moves = findBalanceMovements({ rows, subscribed: new Set([A1, A2, MINER]) })
  // A1's native balance last moved in tx2 (its gas), not tx1 (a transfer row read later).
  expect(moves.get(`${A1}|native`)?.get(246)).toEqual({
    block: 246,
    position: 2,
    txHash: '0xtx2',
    counterparty: TOKEN,
  })
  expect(moves.get(`${A1}|${TOKEN}`)?.get(246)).toMatchObject({ txHash: '0xtx2', counterparty: A2 })
  expect(moves.get(`${A2}|native`)?.get(246)).toMatchObject({ txHash: '0xtx1', counterparty: A1 })
  // The miner's fees come after every transaction.
  expect(moves.get(`${MINER}|native`)?.get(246)).toMatchObject({ txHash: '', position: Infinity })
  expect(moves.has(`${A0}|native`)).toBe(false)
})
