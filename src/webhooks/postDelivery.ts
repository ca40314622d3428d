import type { lookup as dnsLookup } from 'node:dns'
import { safeFetch } from '../net/safeFetch.ts'
import { signWebhook } from './signWebhook.ts'

export type DeliveryAttempt =
  | { ok: true; status: number }
  | { ok: false; status?: number; error: string }

/**
 * One POST of a delivery with the headers and signature of spec/decisions.md, through
 * `safeFetch`: every resolved address is checked (unless private ones are allowed) and
 * redirects are not followed (a 3xx is a failed attempt). Never throws.
 */
export async function postDelivery({
  url,
  secret,
  body,
  headers,
  now,
  allowHttp,
  allowPrivate,
  timeoutMs,
  lookup,
  signal,
}: {
  url: string
  secret: string
  body: string
  /** The scry-webhook-* headers other than the signature and timestamp. */
  headers: Record<string, string>
  now: number
  allowHttp: boolean
  allowPrivate: boolean
  timeoutMs: number
  lookup?: typeof dnsLookup
  signal?: AbortSignal
}): Promise<DeliveryAttempt> {
  if (!allowHttp && !url.startsWith('https:')) {
    return { ok: false, error: 'webhook_url is not https and http is not allowed.' }
  }
  const seconds = Math.floor(now / 1000)
  try {
    const response = await safeFetch({
      url,
      method: 'POST',
      body: Buffer.from(body),
      headers: {
        'content-type': 'application/json',
        ...headers,
        'scry-webhook-timestamp': new Date(seconds * 1000)
          .toISOString()
          .replace(/\.\d{3}Z$/, '+00:00'),
        'scry-webhook-signature': signWebhook({ secret, body, timestamp: seconds }),
      },
      allowPrivate,
      timeoutMs,
      maxRedirects: 0,
      readBody: false,
      userAgent: 'scry-webhooks/1',
      ...(lookup ? { lookup } : {}),
      ...(signal ? { signal } : {}),
    })
    return { ok: true, status: response.status }
  } catch (error) {
    if (signal?.aborted) throw error
    const message = error instanceof Error ? error.message : String(error)
    const status = /^HTTP (\d{3})/.exec(message)?.[1]
    return {
      ok: false,
      error: message.slice(0, 500),
      ...(status ? { status: Number(status) } : {}),
    }
  }
}
