import { createHmac, timingSafeEqual } from 'node:crypto'

export type Cursors = {
  /** An opaque, url-safe cursor for `position`, valid only for the query `scope`. */
  encode(scope: string, position: unknown): string
  /** The position, or `undefined` for a cursor this server did not issue for this scope. */
  decode(scope: string, cursor: string): unknown
}

/**
 * Cursors are a keyset position plus an HMAC over (scope, position) with a server secret
 * (spec/decisions.md "Cursors"): a caller-made or edited cursor, or one from another query,
 * does not decode, and the caller gets the first page.
 */
export function createCursors({ secret }: { secret: string | Buffer }): Cursors {
  const mac = (scope: string, payload: string) =>
    createHmac('sha256', secret).update(scope).update('\n').update(payload).digest().subarray(0, 16)
  return {
    encode(scope, position) {
      const payload = Buffer.from(JSON.stringify(position)).toString('base64url')
      return `${payload}.${mac(scope, payload).toString('base64url')}`
    },
    decode(scope, cursor) {
      const dot = cursor.indexOf('.')
      if (dot <= 0 || cursor.length > 4096) return undefined
      const payload = cursor.slice(0, dot)
      const givenText = cursor.slice(dot + 1)
      const given = Buffer.from(givenText, 'base64url')
      const expected = mac(scope, payload)
      // Base64 decoding forgives stray characters and unused bits: require the exact text.
      if (given.length !== expected.length || given.toString('base64url') !== givenText) {
        return undefined
      }
      if (!timingSafeEqual(given, expected)) return undefined
      if (Buffer.from(payload, 'base64url').toString('base64url') !== payload) return undefined
      try {
        return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
      } catch {
        return undefined
      }
    },
  }
}
