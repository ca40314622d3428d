/**
 * uint256 values are stored as text whose plain byte order is numeric order, so that
 * `ORDER BY balance DESC` is an index scan on both SQLite (BINARY collation) and PostgreSQL (the
 * column is `COLLATE "C"`): two decimal digits giving the number of hex digits (00 to 64), then
 * the lowercase hex digits without leading zeros. 0 is `00`, 1 is `011`, 10^18 is
 * `15de0b6b3a7640000` (migration 0015; before it, 64 zero-padded hex digits).
 */
const MAX_U256 = (1n << 256n) - 1n
const STORED = /^(\d\d)([0-9a-f]*)$/

export function toU256(value: bigint): string {
  if (value < 0n || value > MAX_U256) throw new RangeError(`not a uint256: ${value}`)
  if (value === 0n) return U256_ZERO
  const hex = value.toString(16)
  return `${hex.length.toString().padStart(2, '0')}${hex}`
}

export function fromU256(stored: string): bigint {
  return stored.length <= 2 ? 0n : BigInt(`0x${stored.slice(2)}`)
}

/** Whether text is a stored uint256 as `toU256` writes it (cursors carry stored values). */
export function isStoredU256(text: string): boolean {
  const match = STORED.exec(text)
  if (!match) return false
  const digits = match[2] as string
  return Number(match[1]) === digits.length && digits.length <= 64 && !digits.startsWith('0')
}

export const U256_ZERO = '00'
