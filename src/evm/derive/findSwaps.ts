import type { Address } from '../types.ts'
import type { Movement } from './collectEvent.ts'

/** One wallet's swap in a transaction: what it gave and what it got (null token = native). */
export type Swap = {
  wallet: Address
  from: { token: Address | null; value: bigint }
  to: { token: Address | null; value: bigint }
}

/**
 * Swaps of a transaction that emitted pool Swap events. Candidates are the sender and the
 * swaps' recipients; a candidate swapped when, over the whole transaction, exactly one asset
 * left it and exactly one other asset reached it (native ETH and ERC20s; multi-hop routes
 * collapse because the intermediate tokens never touch the wallet). Pure.
 */
export function findSwaps({
  txFrom,
  recipients,
  movements,
}: {
  txFrom: Address
  recipients: ReadonlySet<Address>
  movements: readonly Movement[]
}): Swap[] {
  const swaps: Swap[] = []
  for (const wallet of new Set([txFrom, ...recipients])) {
    const net = new Map<Address | null, bigint>()
    for (const m of movements) {
      if (m.kind === 'erc721' || m.kind === 'erc1155' || m.from === m.to) continue
      const sign = m.from === wallet ? -1n : m.to === wallet ? 1n : 0n
      if (sign !== 0n) net.set(m.token, (net.get(m.token) ?? 0n) + sign * m.value)
    }
    const gave = [...net].filter(([, v]) => v < 0n)
    const got = [...net].filter(([, v]) => v > 0n)
    if (gave.length !== 1 || got.length !== 1) continue
    const [[fromToken, fromValue]] = gave as [[Address | null, bigint]]
    const [[toToken, toValue]] = got as [[Address | null, bigint]]
    swaps.push({
      wallet,
      from: { token: fromToken, value: -fromValue },
      to: { token: toToken, value: toValue },
    })
  }
  return swaps
}
