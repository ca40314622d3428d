import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * `scry-webhook-signature`: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`
 * (spec/decisions.md). The key is the subscription's secret as UTF-8.
 */
export function signWebhook({
  secret,
  body,
  timestamp,
}: {
  secret: string
  body: string | Buffer
  /** Unix seconds. */
  timestamp: number
}): string {
  return `t=${timestamp},v1=${hmac(secret, timestamp, body)}`
}

/** What a receiver does: true when the header is a valid signature of `body` with `secret`. */
export function verifyWebhookSignature({
  secret,
  body,
  header,
}: {
  secret: string
  body: string | Buffer
  header: string
}): boolean {
  const parts = new Map(
    header.split(',').map((p) => {
      const i = p.indexOf('=')
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()] as const
    }),
  )
  const t = Number(parts.get('t'))
  const v1 = parts.get('v1') ?? ''
  if (!Number.isSafeInteger(t) || !/^[0-9a-f]{64}$/.test(v1)) return false
  return timingSafeEqual(Buffer.from(v1, 'hex'), Buffer.from(hmac(secret, t, body), 'hex'))
}

function hmac(secret: string, timestamp: number, body: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')
}
