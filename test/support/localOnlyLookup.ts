import type { lookup as dnsLookup } from 'node:dns'
import { isIP } from 'node:net'

/**
 * A `dns.lookup` for tests that never leaves this machine: `localhost` and IP literals
 * resolve, every other name fails as unknown (tests must not send traffic anywhere else).
 */
export const localOnlyLookup = ((hostname: string, options: unknown, callback: unknown) => {
  const cb = (typeof options === 'function' ? options : callback) as (
    error: NodeJS.ErrnoException | null,
    address?: unknown,
    family?: number,
  ) => void
  const opts = (typeof options === 'object' && options !== null ? options : {}) as { all?: boolean }
  const literal = isIP(hostname)
  const address = literal ? hostname : hostname === 'localhost' ? '127.0.0.1' : undefined
  if (address === undefined) {
    const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
      code: 'ENOTFOUND',
    })
    process.nextTick(() => cb(error))
    return
  }
  const family = isIP(address)
  process.nextTick(() => (opts.all ? cb(null, [{ address, family }]) : cb(null, address, family)))
}) as typeof dnsLookup
