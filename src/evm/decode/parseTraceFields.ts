import type { Address } from '../types.ts'

const QUANTITY = /^0x[0-9a-fA-F]+$/
const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/** A trace's hex quantity as bigint; missing or unreadable counts as no value moved. */
export function parseTraceQuantity(value: unknown): bigint {
  return typeof value === 'string' && QUANTITY.test(value) ? BigInt(value) : 0n
}

/** A trace's address, lowercased; undefined when missing or not an address. */
export function parseTraceAddress(address: unknown): Address | undefined {
  return typeof address === 'string' && ADDRESS.test(address)
    ? (address.toLowerCase() as Address)
    : undefined
}

/**
 * DELEGATECALL and CALLCODE run another contract's code in the caller's own account, so the
 * `value` a tracer shows on them is the caller's inherited msg.value, not a transfer;
 * STATICCALL cannot carry value. (EOF's EXT* variants behave the same.) Every other frame
 * type with value, including CREATE/CREATE2 and SELFDESTRUCT, moves it.
 */
export function callTypeMovesValue(callType: string): boolean {
  return !NO_VALUE_CALL_TYPES.has(callType)
}

const NO_VALUE_CALL_TYPES = new Set([
  'DELEGATECALL',
  'STATICCALL',
  'CALLCODE',
  'EXTDELEGATECALL',
  'EXTSTATICCALL',
])
