import type { Kysely } from 'kysely'
import type { ChainConfig } from '../../config/types.ts'
import type { Address } from '../../evm/types.ts'
import type { ApprovalKind, Database, TokenStandard } from '../../store/schema.ts'
import { fromU256 } from '../../store/u256.ts'
import { type AssetPrice, readTokenPrices } from '../prices/readTokenPrices.ts'

/** One live approval with what the API shows about it. */
export type WalletApproval = {
  chainId: number
  kind: ApprovalKind
  token: Address
  spender: Address
  /** Raw allowance; operators: none (they may move every token of the collection). */
  allowance: bigint | null
  standard: TokenStandard | null
  symbol: string | null
  name: string | null
  decimals: number | null
  price: AssetPrice | undefined
  /** min(allowance, balance) × price; null when unpriced or not an ERC20 amount. */
  valueAtRiskUsd: number | null
  approvedBlock: number | null
  approvedTime: number | null
  txHash: string | null
  expiration: number | null
}

/** Keyset position in the list order. */
export type ApprovalPosition = {
  v: number | null
  t: number | null
  c: number
  a: string
  s: string
  k: string
}

/** At or above 2^255 an allowance is treated as unlimited (wallets approve 2^256 − 1). */
export const UNLIMITED = 1n << 255n

export const positionOf = (a: WalletApproval): ApprovalPosition => ({
  v: a.valueAtRiskUsd,
  t: a.approvedTime,
  c: a.chainId,
  a: a.token,
  s: a.spender,
  k: a.kind,
})

/**
 * List order: value at risk descending (unvalued last), then the newest approval first,
 * then chain id, token, spender and kind.
 */
export function comparePositions(x: ApprovalPosition, y: ApprovalPosition): number {
  if (x.v !== y.v) {
    if (x.v === null) return 1
    if (y.v === null) return -1
    return y.v - x.v
  }
  if (x.t !== y.t) {
    if (x.t === null) return 1
    if (y.t === null) return -1
    return y.t - x.t
  }
  if (x.c !== y.c) return x.c - y.c
  for (const field of ['a', 's', 'k'] as const) {
    if (x[field] !== y[field]) return x[field] < y[field] ? -1 : 1
  }
  return 0
}

/**
 * A wallet's live approvals on the given chains, in list order: a range scan of the
 * `approvals` key (owner, chain_id, …) with token metadata, the wallet's balances of those
 * tokens and their prices. Permit2 allowances that expired by the chain's indexed head are
 * left out (they can no longer be used).
 */
export async function readApprovals({
  db,
  chains,
  wallet,
  chainIds,
}: {
  db: Kysely<Database>
  chains: readonly ChainConfig[]
  wallet: Address
  chainIds: readonly number[]
}): Promise<WalletApproval[]> {
  if (chainIds.length === 0) return []
  const rows = await db
    .selectFrom('approvals as a')
    .leftJoin('tokens as t', (j) =>
      j.onRef('t.chain_id', '=', 'a.chain_id').onRef('t.address', '=', 'a.token'),
    )
    .leftJoin('token_balances as b', (j) =>
      j
        .onRef('b.address', '=', 'a.owner')
        .onRef('b.chain_id', '=', 'a.chain_id')
        .onRef('b.token', '=', 'a.token'),
    )
    .select([
      'a.chain_id',
      'a.token',
      'a.spender',
      'a.kind',
      'a.allowance',
      'a.approved_block',
      'a.approved_time',
      'a.tx_hash',
      'a.expiration',
      't.standard',
      't.symbol',
      't.name',
      't.decimals',
      'b.balance',
    ])
    .where('a.owner', '=', wallet)
    .where('a.chain_id', 'in', [...chainIds])
    .execute()
  const heads = await headTimes({ db, chainIds })

  const out: WalletApproval[] = []
  for (const chainId of chainIds) {
    const chainRows = rows.filter((r) => Number(r.chain_id) === chainId)
    if (chainRows.length === 0) continue
    const chain = chains.find((c) => c.chainId === chainId)
    const prices = chain
      ? await readTokenPrices({
          db,
          chain,
          assets: [...new Set(chainRows.map((r) => r.token as Address))],
        })
      : new Map()
    const now = heads.get(chainId)
    for (const r of chainRows) {
      if (r.kind === 'permit2' && r.expiration !== null && now !== undefined && r.expiration < now)
        continue
      const allowance = r.kind === 'operator' ? null : fromU256(r.allowance)
      const price = r.kind === 'operator' ? undefined : prices.get(r.token as Address)
      const balance = r.balance === null ? 0n : fromU256(r.balance)
      const atRisk = allowance === null ? null : allowance < balance ? allowance : balance
      out.push({
        chainId,
        kind: r.kind,
        token: r.token as Address,
        spender: r.spender as Address,
        allowance,
        standard: r.standard,
        symbol: r.symbol,
        name: r.name,
        decimals: r.decimals,
        price,
        valueAtRiskUsd:
          atRisk !== null && price && r.decimals !== null
            ? (Number(atRisk) / 10 ** r.decimals) * price.priceUsd
            : null,
        approvedBlock: r.approved_block,
        approvedTime: r.approved_time,
        txHash: r.tx_hash,
        expiration: r.expiration,
      })
    }
  }
  return out.sort((x, y) => comparePositions(positionOf(x), positionOf(y)))
}

/** Block time of each chain's indexed head. */
async function headTimes({
  db,
  chainIds,
}: {
  db: Kysely<Database>
  chainIds: readonly number[]
}): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('checkpoints as c')
    .innerJoin('blocks as b', (j) =>
      j.onRef('b.chain_id', '=', 'c.chain_id').onRef('b.number', '=', 'c.block_number'),
    )
    .select(['c.chain_id', 'b.timestamp'])
    .where('c.chain_id', 'in', [...chainIds])
    .execute()
  return new Map(rows.map((r) => [Number(r.chain_id), Number(r.timestamp)]))
}
