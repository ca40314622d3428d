// Characters RFC 3986 allows (unreserved, reserved, % for escapes); brackets only in the host.
const OUTSIDE_URI = /[^A-Za-z0-9\-._~:/?#@!$&'()*+,;=%]/gu
const OUTSIDE_AUTHORITY = /[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/gu
const BARE_PERCENT = /%(?![0-9A-Fa-f]{2})/g
const AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/

/**
 * A URL as a valid URI: characters a URI cannot hold (spaces, quotes, `<`, non-ASCII, …) are
 * percent-encoded as UTF-8, and a `%` that starts no escape becomes `%25`; everything else,
 * existing escapes included, is kept, so applying it twice changes nothing. Metadata often
 * has `data:image/svg+xml;utf8,<svg …>` images that strict clients would reject.
 */
export function escapeUri(url: string): string {
  const head = AUTHORITY.exec(url)?.[0] ?? ''
  return percentEncode(head, OUTSIDE_AUTHORITY) + percentEncode(url.slice(head.length), OUTSIDE_URI)
}

function percentEncode(text: string, outside: RegExp): string {
  return text
    .replace(BARE_PERCENT, '%25')
    .replace(outside, (c) =>
      [...Buffer.from(c, 'utf8')]
        .map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`)
        .join(''),
    )
}
