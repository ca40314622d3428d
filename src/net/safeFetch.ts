import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import { NonRetryableError, RetryableError } from '../internal/errors.ts'
import { isPrivateAddress } from './isPrivateAddress.ts'

export type SafeFetchOptions = {
  url: string
  /** Allow private, loopback, link-local, unique-local and CGNAT addresses. Default false. */
  allowPrivate?: boolean
  /** Largest body read; a bigger one fails. Default 256 KiB. */
  maxBytes?: number
  /** For the whole fetch, redirects included. Default 10 000. */
  timeoutMs?: number
  /** Default 3. */
  maxRedirects?: number
  /** Host resolution; default `dns.lookup`. Tests pass one that never leaves the machine. */
  lookup?: typeof dnsLookup
  signal?: AbortSignal
  /** Default GET. */
  method?: 'GET' | 'POST'
  /** Request body (POST). */
  body?: Buffer
  /** Extra request headers. */
  headers?: Record<string, string>
  /** Default `scry-nft-metadata/1`. */
  userAgent?: string
  /** Read the response body (default); false drops it once the 2xx status arrives. */
  readBody?: boolean
}

export type SafeFetchResult = {
  url: string
  status: number
  contentType: string | undefined
  body: Buffer
}

/** The fetch was refused or failed in a way that a retry would not change. */
export class FetchRefusedError extends NonRetryableError {
  override name = 'FetchRefusedError'
}

/** The fetch failed in a way that may pass later (timeout, network, 5xx, 429). */
export class FetchFailedError extends RetryableError {
  override name = 'FetchFailedError'
}

/**
 * A request to a URL chosen by someone else (a token contract, a webhook subscriber), safe
 * to run on a server: http(s)
 * only; every address the host resolves to is checked, and the connection goes to a checked
 * address (no second lookup to rebind); redirects are followed by hand, each hop checked
 * again; the body is capped in size and the whole exchange in time.
 */
export async function safeFetch({
  url,
  allowPrivate = false,
  maxBytes = 256 * 1024,
  timeoutMs = 10_000,
  maxRedirects = 3,
  lookup = dnsLookup,
  signal,
  method = 'GET',
  body,
  headers = {},
  userAgent = 'scry-nft-metadata/1',
  readBody = true,
}: SafeFetchOptions): Promise<SafeFetchResult> {
  const timeout = AbortSignal.timeout(timeoutMs)
  const stop = signal ? AbortSignal.any([signal, timeout]) : timeout
  let current = url
  for (let hop = 0; ; hop++) {
    const target = parseTarget(current)
    // URL keeps IPv6 literals in brackets; an IP literal is never looked up, so check it here.
    const literal = target.hostname.replace(/^\[|\]$/g, '')
    if (!allowPrivate && isIP(literal) && isPrivateAddress(literal)) {
      throw new FetchRefusedError(`Refused to fetch from a private address (${target.host}).`)
    }
    let response: IncomingMessage
    try {
      response = await send({
        target,
        allowPrivate,
        lookup,
        signal: stop,
        method,
        body,
        headers: { 'user-agent': userAgent, ...headers },
      })
    } catch (error) {
      throw toFetchError({ error, signal, timeout, timeoutMs, host: target.host })
    }
    const status = response.statusCode ?? 0
    if (status >= 300 && status < 400 && response.headers.location) {
      response.resume()
      if (maxRedirects === 0) {
        throw new FetchRefusedError(`HTTP ${status} redirect from ${target.host}, not followed.`)
      }
      if (hop >= maxRedirects) {
        throw new FetchRefusedError(`More than ${maxRedirects} redirects from ${target.host}.`)
      }
      current = resolveLocation(response.headers.location, target)
      continue
    }
    if (status < 200 || status >= 300) {
      response.resume()
      const message = `HTTP ${status} from ${target.host}.`
      if (status === 408 || status === 429 || status >= 500) throw new FetchFailedError(message)
      throw new FetchRefusedError(message)
    }
    const contentType = response.headers['content-type']
    if (!readBody) {
      response.destroy()
      return { url: target.href, status, contentType, body: Buffer.alloc(0) }
    }
    const length = Number(response.headers['content-length'])
    if (Number.isFinite(length) && length > maxBytes) {
      response.destroy()
      throw new FetchRefusedError(`The response is larger than ${maxBytes} bytes.`)
    }
    try {
      const read = await readLimited({ response, maxBytes })
      return { url: target.href, status, contentType, body: read }
    } catch (error) {
      if (error instanceof FetchRefusedError) throw error
      throw toFetchError({ error, signal, timeout, timeoutMs, host: target.host })
    }
  }
}

function parseTarget(url: string): URL {
  let target: URL
  try {
    target = new URL(url)
  } catch {
    throw new FetchRefusedError('Malformed URL.')
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new FetchRefusedError(`Refused to fetch a ${target.protocol.slice(0, 20)} URL.`)
  }
  if (target.username || target.password) {
    throw new FetchRefusedError('Refused to fetch a URL with credentials.')
  }
  return target
}

function resolveLocation(location: string, base: URL): string {
  try {
    return new URL(location, base).toString()
  } catch {
    throw new FetchRefusedError(`Malformed redirect from ${base.host}.`)
  }
}

function send({
  target,
  allowPrivate,
  lookup,
  signal,
  method,
  body,
  headers,
}: {
  target: URL
  allowPrivate: boolean
  lookup: typeof dnsLookup
  signal: AbortSignal
  method: 'GET' | 'POST'
  body: Buffer | undefined
  headers: Record<string, string>
}): Promise<IncomingMessage> {
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method,
        signal,
        lookup: checkedLookup(allowPrivate, lookup),
        headers: {
          accept: 'application/json, */*;q=0.5',
          'accept-encoding': 'identity',
          ...(body ? { 'content-length': String(body.length) } : {}),
          ...headers,
        },
      },
      resolve,
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** dns.lookup that fails when any address of the host is private (unless allowed). */
function checkedLookup(allowPrivate: boolean, lookup: typeof dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { all: true, family: options.family ?? 0 }, (error, addresses) => {
      if (error) return callback(error, '', 0)
      const list = addresses as LookupAddress[]
      const first = list[0]
      if (!first) return callback(new FetchFailedError(`No address for ${hostname}.`), '', 0)
      if (!allowPrivate && list.some((a) => isPrivateAddress(a.address))) {
        const refused = new FetchRefusedError(
          `Refused to fetch from ${hostname}: it resolves to a private address.`,
        )
        return callback(refused as NodeJS.ErrnoException, '', 0)
      }
      if (options.all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list)
      callback(null, first.address, first.family)
    })
  }
}

async function readLimited({
  response,
  maxBytes,
}: {
  response: IncomingMessage
  maxBytes: number
}): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of response) {
    size += (chunk as Buffer).length
    if (size > maxBytes) {
      response.destroy()
      throw new FetchRefusedError(`The response is larger than ${maxBytes} bytes.`)
    }
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

function toFetchError({
  error,
  signal,
  timeout,
  timeoutMs,
  host,
}: {
  error: unknown
  signal: AbortSignal | undefined
  timeout: AbortSignal
  timeoutMs: number
  host: string
}): Error {
  if (signal?.aborted) return signal.reason as Error
  if (error instanceof FetchRefusedError || error instanceof FetchFailedError) return error
  if (timeout.aborted) return new FetchFailedError(`No answer from ${host} within ${timeoutMs} ms.`)
  const code = (error as NodeJS.ErrnoException)?.code
  return new FetchFailedError(`Could not fetch from ${host}${code ? ` (${code})` : ''}.`, {
    cause: error,
  })
}
