/**
 * A PostgreSQL array literal (`{1,NULL,"a\"b","\\x0a0b"}`) of one column's values, sent as one
 * text parameter and cast to the column's array type. What `pg` would make of a JS array,
 * without its per-element `toString` and two regex replaces: numbers and bigints go bare, bytes
 * as `\x` hex, strings quoted with `\` and `"` escaped only when they hold one, objects as JSON.
 * The indexer sends every row of a batch this way, so the cost per element matters.
 */
export function toArrayLiteral(values: readonly unknown[]): string {
  const parts = new Array<string>(values.length)
  for (let i = 0; i < values.length; i++) parts[i] = element(values[i])
  return `{${parts.join(',')}}`
}

const NEEDS_ESCAPE = /[\\"]/
const ESCAPED = /[\\"]/g

function element(value: unknown): string {
  if (value === null || value === undefined) return 'NULL'
  switch (typeof value) {
    case 'number':
    case 'bigint':
      return String(value)
    case 'boolean':
      return value ? 'true' : 'false'
    case 'string':
      return quoted(value)
  }
  if (ArrayBuffer.isView(value)) {
    const bytes = Buffer.from(value.buffer, value.byteOffset, value.byteLength)
    return `"\\\\x${bytes.toString('hex')}"`
  }
  return quoted(JSON.stringify(value))
}

function quoted(text: string): string {
  return NEEDS_ESCAPE.test(text) ? `"${text.replace(ESCAPED, '\\$&')}"` : `"${text}"`
}
