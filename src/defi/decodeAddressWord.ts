import type { Address, Hex } from '../evm/types.ts'

const ADDRESS_WORD = /^0x0{24}([0-9a-fA-F]{40})$/

/**
 * Pure: the address a call such as `asset()` or `POOL()` answered, when it answered exactly one
 * ABI word holding a non-zero address (lowercase); anything else (a revert, `0x`, a longer
 * answer, a number above 2^160) means the token is not what the call asked about (an ERC4626
 * vault, an Aave token).
 */
export function decodeAddressWord(result: Hex | undefined): Address | undefined {
  const match = result === undefined ? null : ADDRESS_WORD.exec(result)
  if (!match?.[1] || /^0+$/.test(match[1])) return undefined
  return `0x${match[1].toLowerCase()}`
}
