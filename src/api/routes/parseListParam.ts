import { ApiError } from '../ApiError.ts'

/**
 * A comma-separated enumeration parameter: trimmed, lowercased, empty items ignored (an empty
 * value means no filter); an unknown value is a 400 that lists the accepted ones.
 */
export function parseListParam<T extends string>({
  name,
  input,
  allowed,
}: {
  name: string
  input: string | undefined
  allowed: readonly T[]
}): T[] {
  if (input === undefined) return []
  const out: T[] = []
  for (const raw of input.split(',')) {
    const value = raw.trim().toLowerCase()
    if (value === '') continue
    if (!(allowed as readonly string[]).includes(value))
      throw new ApiError(
        'BAD_REQUEST',
        `Invalid ${name} ${JSON.stringify(raw.trim().slice(0, 50))}: expected one of ${allowed.join(', ')}.`,
      )
    if (!out.includes(value as T)) out.push(value as T)
  }
  return out
}
