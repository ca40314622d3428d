/**
 * uint256 values are stored as 64 lowercase hex digits, zero-padded, so that the database's
 * plain byte order is numeric order: `ORDER BY balance DESC` is an index scan on both SQLite
 * (BINARY collation) and PostgreSQL (the column is `COLLATE "C"`).
 */
const MAX_U256 = (1n << 256n) - 1n

export function toU256(value: bigint): string {
  if (value < 0n || value > MAX_U256) throw new RangeError(`not a uint256: ${value}`)
  return value.toString(16).padStart(64, '0')
}

export function fromU256(stored: string): bigint {
  return BigInt(`0x${stored}`)
}

export const U256_ZERO = toU256(0n)
