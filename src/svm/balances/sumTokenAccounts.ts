import { parseTokenAccount } from '../parse/parseTokenAccount.ts'
import type { SvmAccount } from '../rpc/createSvmRpc.ts'

/** Amount per mint over a wallet's token accounts (both programs), zero totals dropped. */
export function sumTokenAccounts(accounts: readonly SvmAccount[]): Map<string, bigint> {
  const totals = new Map<string, bigint>()
  for (const account of accounts) {
    const parsed = parseTokenAccount(account.data)
    if (!parsed) continue
    totals.set(parsed.mint, (totals.get(parsed.mint) ?? 0n) + parsed.amount)
  }
  for (const [mint, amount] of totals) if (amount === 0n) totals.delete(mint)
  return totals
}
