/** Hosts of URL shorteners: a metadata URI behind one hides where it leads. */
export const URL_SHORTENER_HOSTS: readonly string[] = [
  'bit.ly',
  'bitly.com',
  'tinyurl.com',
  't.co',
  'goo.gl',
  'ow.ly',
  'is.gd',
  'buff.ly',
  'rebrand.ly',
  'cutt.ly',
  'shorturl.at',
  'rb.gy',
  't.ly',
  'tiny.cc',
  'bl.ink',
  'lnkd.in',
  's.id',
  'v.gd',
]

/** Words of the usual lures ("claim your reward at …"). `$` is matched as a sign before a name or amount. */
export const SUSPICIOUS_WORDS: readonly string[] = [
  'claim',
  'reward',
  'airdrop',
  'visit',
  'voucher',
  'giveaway',
  'redeem',
  'bonus',
  'free mint',
  'eligible',
  'whitelist',
  'winner',
]

const WORD_PATTERNS = SUSPICIOUS_WORDS.map(
  (word) => [word, new RegExp(`(?:^|[^\\p{L}])${word.replace(' ', '[\\s_-]+')}`, 'iu')] as const,
)
const DOLLAR = /\$\s?[\p{L}\d]/u

/**
 * The distinct lure words in the given texts (each counted once), `$` included when a
 * dollar sign precedes a name or an amount. Matching is at the start of words, case-blind, so
 * "claimable" and "rewards" count and "proclaim" does not.
 */
export function findSuspiciousWords(texts: readonly (string | undefined)[]): string[] {
  const found = new Set<string>()
  for (const text of texts) {
    if (!text) continue
    for (const [word, pattern] of WORD_PATTERNS) if (pattern.test(text)) found.add(word)
    if (DOLLAR.test(text)) found.add('$')
  }
  return [...found]
}

/**
 * URI features: is it http(s) off IPFS (an `/ipfs/<cid>` gateway path counts as IPFS; data:,
 * ipfs: and ar: are not "non-IPFS" since their content cannot change), and is its host a URL
 * shortener. Both undefined when there is no URI.
 */
export function uriFeatures(uri: string | undefined): {
  uriNonIpfs: boolean | undefined
  urlShortener: boolean | undefined
} {
  if (uri === undefined) return { uriNonIpfs: undefined, urlShortener: undefined }
  const trimmed = uri.trim()
  if (!/^https?:/i.test(trimmed)) return { uriNonIpfs: false, urlShortener: false }
  let url: URL
  try {
    url = new URL(trimmed)
  } catch {
    return { uriNonIpfs: true, urlShortener: false }
  }
  const host = url.hostname.toLowerCase().replace(/^www\./, '')
  return {
    uriNonIpfs: !/^\/ipfs\/[a-z0-9]/i.test(url.pathname) && !host.includes('.ipfs.'),
    urlShortener: URL_SHORTENER_HOSTS.includes(host),
  }
}

/** The URI as text to search for lure words; data: URIs are skipped (their content is parsed). */
export function uriText(uri: string | undefined): string | undefined {
  if (uri === undefined || /^data:/i.test(uri.trim())) return undefined
  try {
    return decodeURIComponent(uri)
  } catch {
    return uri
  }
}
