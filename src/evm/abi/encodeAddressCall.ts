import type { Address, Hex } from '../types.ts'

/**
 * Calldata of a function whose arguments are all addresses (`balanceOf(owner)`,
 * `allowance(owner, spender)`, …): the selector and each address as a word. A batch encodes
 * thousands of these; viem's general encoder takes ~1.7 µs each, this a seventh of that. Unlike
 * viem's, it does not check the addresses: they come decoded from logs and traces.
 */
export function encodeAddressCall(selector: Hex, ...addresses: readonly Address[]): Hex {
  let out: string = selector
  for (const a of addresses) out += a.slice(2).toLowerCase().padStart(64, '0')
  return out as Hex
}
