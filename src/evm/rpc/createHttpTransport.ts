import { decodeUtf8 } from '../../utils/decodeUtf8.ts'
import { RpcHttpError, RpcTransportError } from './errors.ts'
import { getUrlHost } from './getUrlHost.ts'
import { readJsonRpcResponse } from './readJsonRpcResponse.ts'
import type { Transport } from './types.ts'

/**
 * JSON-RPC over HTTP POST with the platform's fetch. `parseJson` reads answers (default
 * `JSON.parse`; Solana passes a lossless parser so u64 values above 2^53 stay exact).
 */
export function createHttpTransport({
  url,
  parseJson = JSON.parse,
}: {
  url: string
  parseJson?: (text: string) => unknown
}): Transport {
  const host = getUrlHost(url)
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  // fetch refuses URLs with credentials; send them as Basic auth instead
  const target = new URL(url)
  if (target.username || target.password) {
    const user = decodeURIComponent(target.username)
    const password = decodeURIComponent(target.password)
    headers.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`
    target.username = ''
    target.password = ''
  }
  const endpoint = target.toString()

  return {
    host,
    async send(payload, { method, signal }) {
      let status: number
      let retryAfter: string | null
      let text: string
      try {
        const response = await fetch(endpoint, {
          method: 'POST',
          headers,
          body: JSON.stringify(payload),
          signal,
        })
        status = response.status
        retryAfter = response.headers.get('retry-after')
        text = decodeUtf8(await response.arrayBuffer())
      } catch (error) {
        if (signal.aborted) throw signal.reason
        throw new RpcTransportError({
          method,
          host,
          reason: describeNetworkError(error),
          cause: error,
        })
      }

      if (status < 200 || status > 299) {
        // Some providers send JSON-RPC errors (invalid params, reverts) with HTTP 400: those
        // are answers to the calls, not trouble with the endpoint.
        if (status === 400) {
          const parsed = tryParse(parseJson, text)
          const first = Array.isArray(parsed) ? parsed[0] : parsed
          if (parsed !== undefined && readJsonRpcResponse(first)) return parsed
        }
        throw new RpcHttpError({ method, host, status, retryAfterMs: parseRetryAfter(retryAfter) })
      }
      const parsed = tryParse(parseJson, text)
      if (parsed === undefined) {
        throw new RpcTransportError({ method, host, reason: 'the answer is not JSON' })
      }
      return parsed
    },
    close() {},
  }
}

function tryParse(parseJson: (text: string) => unknown, text: string): unknown {
  try {
    return parseJson(text)
  } catch {
    return undefined
  }
}

/** `Retry-After` is either seconds or an HTTP date. */
function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now())
}

function describeNetworkError(error: unknown): string {
  // undici puts the socket error (ECONNREFUSED, ECONNRESET, …) in `cause`
  const cause = error instanceof Error ? error.cause : undefined
  const code =
    typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : undefined
  return code ? `connection failed (${code})` : 'connection failed'
}
