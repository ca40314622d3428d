import type { SvmBalanceRecord } from '../../svm/balances/toSvmBalanceRecord.ts'

/** Keyset of an SVM balance row: value (null = unpriced), chain rank, address. */
export type BalancePosition = { v: number | null; c: number; a: string }

export function positionOf(
  record: SvmBalanceRecord,
  chainRank: (chain: string) => number,
): BalancePosition {
  return { v: record.value_usd ?? null, c: chainRank(record.chain), a: record.address }
}

/**
 * Order of the SVM balances list: `value_usd` descending with unpriced rows last, then chain
 * (solana, eclipse), then the native row, then mint address.
 */
export function compareBalances(x: BalancePosition, y: BalancePosition): number {
  if (x.v !== y.v) {
    if (x.v === null) return 1
    if (y.v === null) return -1
    return y.v - x.v
  }
  if (x.c !== y.c) return x.c - y.c
  if (x.a === y.a) return 0
  if (x.a === 'native') return -1
  if (y.a === 'native') return 1
  return x.a < y.a ? -1 : 1
}
