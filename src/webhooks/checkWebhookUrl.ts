import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { isIP } from 'node:net'
import { BaseError } from '../internal/errors.ts'
import { isPrivateAddress } from '../net/isPrivateAddress.ts'

/** Operator rules for webhook URLs (config `webhooks`). */
export type WebhookUrlPolicy = {
  /** Accept `http://` URLs (development). Default false. */
  allowHttp: boolean
  /** Accept hosts on private, loopback, link-local addresses. Default false. */
  allowPrivate: boolean
  /** Host resolution; default `dns.lookup`. */
  lookup?: typeof dnsLookup
}

/** A webhook URL the rules refuse; the message is safe to show the subscriber. */
export class InvalidWebhookUrlError extends BaseError {
  override name = 'InvalidWebhookUrlError'
}

const MAX_URL_LENGTH = 2000

/**
 * Checks a subscriber's URL at creation: https (http only when allowed), no credentials, and
 * every address the host resolves to public (unless allowed). Delivery checks again, per
 * resolved address, because DNS can change (`safeFetch`). Returns the normalized URL.
 */
export async function checkWebhookUrl({
  url,
  policy,
}: {
  url: string
  policy: WebhookUrlPolicy
}): Promise<string> {
  if (url.length > MAX_URL_LENGTH) {
    throw new InvalidWebhookUrlError(`webhook_url is longer than ${MAX_URL_LENGTH} characters.`)
  }
  let target: URL
  try {
    target = new URL(url)
  } catch {
    throw new InvalidWebhookUrlError('webhook_url is not a valid URL.')
  }
  const allowed = policy.allowHttp ? ['https:', 'http:'] : ['https:']
  if (!allowed.includes(target.protocol)) {
    throw new InvalidWebhookUrlError(
      policy.allowHttp
        ? 'webhook_url must be an http or https URL.'
        : 'webhook_url must be an https URL.',
    )
  }
  if (target.username || target.password) {
    throw new InvalidWebhookUrlError('webhook_url must not contain credentials.')
  }
  // Nothing listens on port 0: every delivery would fail.
  if (target.port === '0') throw new InvalidWebhookUrlError('webhook_url must not name port 0.')
  if (!policy.allowPrivate) {
    const host = target.hostname.replace(/^\[|\]$/g, '')
    const addresses = isIP(host) ? [host] : await resolve(host, policy.lookup ?? dnsLookup)
    if (addresses.some((a) => isPrivateAddress(a))) {
      throw new InvalidWebhookUrlError(
        'webhook_url must not point at a private, loopback or link-local address.',
      )
    }
  }
  return target.href
}

function resolve(host: string, lookup: typeof dnsLookup): Promise<string[]> {
  return new Promise((done, fail) => {
    lookup(host, { all: true }, (error, addresses) => {
      const list = (addresses ?? []) as LookupAddress[]
      if (error || list.length === 0) {
        fail(new InvalidWebhookUrlError(`The host of webhook_url (${host}) does not resolve.`))
      } else done(list.map((a) => a.address))
    })
  })
}
