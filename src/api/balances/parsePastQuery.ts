import { ApiError } from '../ApiError.ts'

/** `block_number` or `at` of the balances endpoints: read at a past block or time. */
export type PastTarget = { blockNumber: number } | { at: number }

const INTEGER = /^[0-9]{1,15}$/
// ISO 8601 date-times with seconds and a zone, as Date.parse reads them reliably.
const ISO_8601 = /^\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d{1,9})?)?(?:Z|[+-]\d\d:?\d\d)$/

/**
 * `block_number` (a block number) or `at` (ISO 8601 with a zone, or unix seconds); both → 400;
 * neither → undefined (the answer is read at the indexed head).
 */
export function parsePastQuery({
  blockNumber,
  at,
}: {
  blockNumber: string | undefined
  at: string | undefined
}): PastTarget | undefined {
  if (blockNumber !== undefined && at !== undefined) {
    throw new ApiError('BAD_REQUEST', 'Invalid block_number and at: give one of them, not both.')
  }
  if (blockNumber !== undefined) {
    const text = blockNumber.trim()
    if (!INTEGER.test(text)) {
      throw new ApiError('BAD_REQUEST', 'Invalid block_number: expected a block number.')
    }
    return { blockNumber: Number(text) }
  }
  if (at !== undefined) {
    const text = at.trim()
    if (INTEGER.test(text)) return { at: Number(text) }
    const ms = ISO_8601.test(text) && isCalendarDate(text) ? Date.parse(text) : Number.NaN
    if (!Number.isFinite(ms) || ms < 0) {
      throw new ApiError(
        'BAD_REQUEST',
        'Invalid at: expected an ISO 8601 time with a zone (2025-02-20T13:52:29Z) or unix seconds.',
      )
    }
    return { at: Math.floor(ms / 1000) }
  }
  return undefined
}

/** Whether the date part names a day of the calendar (Date.parse rolls 2026-02-30 over). */
function isCalendarDate(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number]
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate()
  return month >= 1 && month <= 12 && day >= 1 && day <= days
}
