import type { Address } from '../types.ts'

/** Transfers from it are mints, to it burns. */
export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000' as Address
