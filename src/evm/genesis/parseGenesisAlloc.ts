import type { Address } from '../types.ts'

/**
 * Pure: the accounts a chain spec's `genesis.json` funds (`alloc` entries with a non-zero
 * `balance`), lowercase, in file order. Keys may come with or without `0x`; balances as hex
 * or decimal strings (geth, reth and OP Stack specs use both). Throws an `Error` saying what
 * is wrong with the document.
 */
export function parseGenesisAlloc(json: unknown): Address[] {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new Error('expected a JSON object with an "alloc" object')
  const alloc = (json as { alloc?: unknown }).alloc
  if (typeof alloc !== 'object' || alloc === null || Array.isArray(alloc))
    throw new Error('expected an "alloc" object (address → { balance })')
  const funded: Address[] = []
  for (const [key, entry] of Object.entries(alloc)) {
    const hex = key.toLowerCase().replace(/^0x/, '')
    if (!/^[0-9a-f]{40}$/.test(hex)) throw new Error(`"${key}" in alloc is not an address`)
    const balance = (entry as { balance?: unknown } | null)?.balance
    if (balance === undefined || balance === null) continue
    let value: bigint
    try {
      value = BigInt(String(balance))
    } catch {
      throw new Error(`the balance of ${key} is not a number: ${JSON.stringify(balance)}`)
    }
    if (value > 0n) funded.push(`0x${hex}`)
  }
  return funded
}
