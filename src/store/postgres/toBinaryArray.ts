/** PostgreSQL's type id of `bytea` (pg_type.oid), which a binary array names for its elements. */
const BYTEA_OID = 17

/**
 * One `bytea` column's values as PostgreSQL's binary array format (what `array_recv` reads),
 * or undefined when a value is neither bytes nor null (the caller falls back to a text
 * literal). `pg` sends a `Buffer` parameter as binary, so the bytes go as they are: a text
 * literal spells each byte as two hex digits that Node encodes and PostgreSQL parses back.
 * Header: dimensions (1), whether any element is null, the element type, then the length and
 * lower bound (1) of the one dimension; each element is its length (-1 for null) and bytes.
 */
export function toByteaArray(values: readonly unknown[]): Buffer | undefined {
  let size = 20
  let hasNull = 0
  for (const value of values) {
    if (value === null || value === undefined) hasNull = 1
    else if (value instanceof Uint8Array) size += value.byteLength
    else return undefined
    size += 4
  }
  const out = Buffer.allocUnsafe(size)
  out.writeInt32BE(1, 0)
  out.writeInt32BE(hasNull, 4)
  out.writeInt32BE(BYTEA_OID, 8)
  out.writeInt32BE(values.length, 12)
  out.writeInt32BE(1, 16)
  let at = 20
  for (const value of values) {
    if (value instanceof Uint8Array) {
      out.writeInt32BE(value.byteLength, at)
      out.set(value, at + 4)
      at += 4 + value.byteLength
    } else {
      out.writeInt32BE(-1, at)
      at += 4
    }
  }
  return out
}
