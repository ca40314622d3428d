/**
 * Whether a parsed JSON value holds a NUL character in any string, key or value. PostgreSQL
 * text cannot store one (the query fails), and no field of this API has a use for it.
 */
export function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000')
  if (Array.isArray(value)) return value.some(holdsNul)
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(([key, v]) => key.includes('\u0000') || holdsNul(v))
  }
  return false
}
