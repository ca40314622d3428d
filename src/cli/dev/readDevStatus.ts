import type { Store } from '../../store/createStore.ts'
import { U256_ZERO } from '../../store/u256.ts'

export type DevStatusRow = {
  label: string
  indexedBlock: number | undefined
  /** Undefined when the node did not answer. */
  headBlock: number | undefined
  transfers: number
  /** Addresses with a non-zero native balance. */
  wallets: number
}

/** One row per local chain: the store's checkpoint and counts against the node's head. */
export async function readDevStatus({
  store,
  chains,
}: {
  store: Store
  chains: readonly { chainId: number; label: string; rpcUrl: string }[]
}): Promise<DevStatusRow[]> {
  return Promise.all(
    chains.map(async ({ chainId, label, rpcUrl }) => {
      const [checkpoint, headBlock, transfers, wallets] = await Promise.all([
        store.getCheckpoint(chainId),
        readHead(rpcUrl),
        store.db
          .selectFrom('transfers')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('chain_id', '=', chainId)
          .executeTakeFirst(),
        store.db
          .selectFrom('native_balances')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('chain_id', '=', chainId)
          .where('balance', '!=', U256_ZERO)
          .executeTakeFirst(),
      ])
      return {
        label,
        indexedBlock: checkpoint?.blockNumber,
        headBlock,
        transfers: Number(transfers?.n ?? 0),
        wallets: Number(wallets?.n ?? 0),
      }
    }),
  )
}

/** A compact table for a terminal, columns aligned. */
export function formatDevStatus(rows: readonly DevStatusRow[]): string {
  const fmt = (n: number | undefined) => (n === undefined ? '-' : n.toLocaleString('en-US'))
  const table = [
    ['chain', 'indexed block', 'node head', 'lag', 'transfers', 'native holders'],
    ...rows.map((r) => [
      r.label,
      r.indexedBlock === undefined ? 'not started' : String(r.indexedBlock),
      r.headBlock === undefined ? 'unreachable' : String(r.headBlock),
      r.indexedBlock === undefined || r.headBlock === undefined
        ? '-'
        : String(Math.max(0, r.headBlock - r.indexedBlock)),
      fmt(r.transfers),
      fmt(r.wallets),
    ]),
  ]
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => (row[i] ?? '').length)))
  return table
    .map((row) =>
      row
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
        .join('  '),
    )
    .map((line) => `  ${line.trimEnd()}\n`)
    .join('')
}

async function readHead(rpcUrl: string): Promise<number | undefined> {
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
      signal: AbortSignal.timeout(2_000),
    })
    const { result } = (await res.json()) as { result?: string }
    return typeof result === 'string' ? Number(BigInt(result)) : undefined
  } catch {
    return undefined
  }
}
