/**
 * Element types sent in PostgreSQL's binary array format, by the column's `udt_name`: the type
 * id (pg_type.oid) that the array names, and each value's size (undefined: it does not fit the
 * type, and the column goes as a text literal). Integers must be whole and in range.
 */
const ELEMENTS: Record<string, { oid: number; size: (value: unknown) => number | undefined }> = {
  bytea: { oid: 17, size: (v) => (v instanceof Uint8Array ? v.byteLength : undefined) },
  text: { oid: 25, size: (v) => (typeof v === 'string' ? Buffer.byteLength(v) : undefined) },
  int8: { oid: 20, size: (v) => (fits(v, 63) ? 8 : undefined) },
  int4: { oid: 23, size: (v) => (fits(v, 31) ? 4 : undefined) },
  int2: { oid: 21, size: (v) => (fits(v, 15) ? 2 : undefined) },
}

/** Whether a number or bigint is a whole signed integer of `bits` + 1 bits. */
function fits(value: unknown, bits: number): boolean {
  if (typeof value === 'number') {
    return Number.isInteger(value) && value >= -(2 ** bits) && value < 2 ** bits
  }
  return typeof value === 'bigint' && value >= -(2n ** BigInt(bits)) && value < 2n ** BigInt(bits)
}

/**
 * One column's values in PostgreSQL's binary array format (what `array_recv` reads), for the
 * types of `ELEMENTS`; undefined for another type or when a value does not fit (the caller
 * sends a text literal, `toArrayLiteral`). `pg` sends a `Buffer` parameter as binary, so
 * bytes go as they are and text without quotes or escapes: a literal spells each byte as two
 * hex digits and escapes every `"` of the undo log's JSON, which Node writes and PostgreSQL
 * parses back. Header: dimensions (1), whether any element is null, the element type, then the
 * length and lower bound (1) of the one dimension; each element is its length (-1 for null)
 * and its bytes (integers big-endian).
 */
export function toBinaryArray(type: string, values: readonly unknown[]): Buffer | undefined {
  const element = ELEMENTS[type]
  if (!element) return undefined
  const sizes = new Array<number>(values.length)
  let total = 20
  let hasNull = 0
  for (let i = 0; i < values.length; i++) {
    const value = values[i]
    let size = -1
    if (value === null || value === undefined) hasNull = 1
    else {
      const fitted = element.size(value)
      if (fitted === undefined) return undefined
      size = fitted
      total += size
    }
    sizes[i] = size
    total += 4
  }
  const out = Buffer.allocUnsafe(total)
  out.writeInt32BE(1, 0)
  out.writeInt32BE(hasNull, 4)
  out.writeInt32BE(element.oid, 8)
  out.writeInt32BE(values.length, 12)
  out.writeInt32BE(1, 16)
  let at = 20
  for (let i = 0; i < values.length; i++) {
    const size = sizes[i] as number
    out.writeInt32BE(size, at)
    at += 4
    if (size < 0) continue
    const value = values[i]
    if (type === 'bytea') out.set(value as Uint8Array, at)
    else if (type === 'text') out.write(value as string, at, size, 'utf8')
    else if (size === 8) {
      if (typeof value === 'bigint') out.writeBigInt64BE(value, at)
      else {
        // Two words, without a bigint per value: the high one signed, the low one unsigned.
        const high = Math.floor((value as number) / 2 ** 32)
        out.writeInt32BE(high, at)
        out.writeUInt32BE((value as number) - high * 2 ** 32, at + 4)
      }
    } else if (size === 4) out.writeInt32BE(Number(value), at)
    else out.writeInt16BE(Number(value), at)
    at += size
  }
  return out
}
