import type { Store } from '../../store/createStore.ts'
import type { SvmRpc } from '../rpc/createSvmRpc.ts'
import { stringifySvmJson } from '../rpc/svmJson.ts'
import { readTransactionRows, writeTransactionRows } from '../store/transactionRows.ts'

export type SvmTransactionItem = {
  signature: string
  slot: number
  /** Unix seconds, null when unknown. */
  blockTime: number | null
  /** The node's getTransaction JSON as text; "null" when the node has not got it (yet). */
  raw: string
}

/**
 * One page of an address's transactions, newest first: signatures from the node
 * (`getSignaturesForAddress`, `before` the cursor), each transaction from the store when it
 * is there, else from the node; finalized ones are stored so a second read stays local.
 */
export async function readSvmTransactions({
  chain,
  rpc,
  store,
  address,
  limit,
  before,
  signal,
}: {
  chain: string
  rpc: SvmRpc
  store: Store
  address: string
  limit: number
  before: string | undefined
  signal?: AbortSignal
}): Promise<{ items: SvmTransactionItem[]; more: boolean }> {
  const infos = await rpc.getSignaturesForAddress({ address, limit: limit + 1, before }, signal)
  const page = infos.slice(0, limit)
  const stored = await readTransactionRows({
    db: store.db,
    chain,
    signatures: page.map((info) => info.signature),
  })
  const missing = page.filter((info) => !stored.has(info.signature))
  const fetched =
    missing.length > 0
      ? await rpc.getTransactions(
          missing.map((i) => i.signature),
          signal,
        )
      : []
  const fresh = new Map(missing.map((info, i) => [info.signature, fetched[i] ?? null]))
  const finalized = missing.flatMap((info) => {
    const raw = fresh.get(info.signature)
    if (info.confirmationStatus !== 'finalized' || raw === null || raw === undefined) return []
    return [
      {
        signature: info.signature,
        slot: info.slot,
        blockTime: info.blockTime,
        raw: stringifySvmJson(raw),
      },
    ]
  })
  await writeTransactionRows({ db: store.db, chain, rows: finalized })
  const items = page.map((info) => {
    const kept = stored.get(info.signature)
    if (kept) return kept
    return {
      signature: info.signature,
      slot: info.slot,
      blockTime: info.blockTime,
      raw: stringifySvmJson(fresh.get(info.signature) ?? null),
    }
  })
  return { items, more: infos.length > limit }
}
