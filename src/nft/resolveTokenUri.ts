import type { NftStandard } from '../store/schema.ts'

/** Where a token's metadata lives, once its URI is read. */
export type MetadataSource =
  | { type: 'data'; mediaType: string; body: Buffer }
  | { type: 'http'; url: string }
  | { type: 'unsupported'; reason: string }

export const DEFAULT_IPFS_GATEWAY = 'https://ipfs.io/ipfs/'

/**
 * The URI a contract returned, with ERC1155's `{id}` replaced by the id as 64 lowercase hex
 * digits without 0x (EIP-1155 "Metadata"). ERC721 URIs are used as returned.
 */
export function substituteTokenId({
  uri,
  standard,
  tokenId,
}: {
  uri: string
  standard: NftStandard
  tokenId: bigint
}): string {
  if (standard !== 'erc1155') return uri
  return uri.replaceAll('{id}', tokenId.toString(16).padStart(64, '0'))
}

/**
 * Where to read a metadata URI from: `data:` is decoded in place, `ipfs://` goes through the
 * gateway (`ipfs://<cid>/…` and the common mistake `ipfs://ipfs/<cid>/…`), `ar://` through
 * arweave.net, http(s) as is. Pure: no I/O.
 */
export function resolveTokenUri({
  uri,
  ipfsGateway = DEFAULT_IPFS_GATEWAY,
}: {
  uri: string
  ipfsGateway?: string
}): MetadataSource {
  const trimmed = uri.trim()
  const scheme = trimmed.match(/^([a-z][a-z0-9+.-]*):/i)?.[1]?.toLowerCase()
  switch (scheme) {
    case 'data': {
      const parsed = parseDataUri(trimmed)
      return parsed
        ? { type: 'data', ...parsed }
        : { type: 'unsupported', reason: 'malformed data: URI' }
    }
    case 'ipfs': {
      const path = ipfsPath(trimmed)
      if (!path) return { type: 'unsupported', reason: 'ipfs: URI without a content id' }
      return { type: 'http', url: joinGateway(ipfsGateway, path) }
    }
    case 'ar': {
      const path = trimmed.slice('ar://'.length)
      if (!path) return { type: 'unsupported', reason: 'ar: URI without a transaction id' }
      return { type: 'http', url: `https://arweave.net/${path}` }
    }
    case 'http':
    case 'https': {
      try {
        return { type: 'http', url: new URL(trimmed).toString() }
      } catch {
        return { type: 'unsupported', reason: 'malformed http URL' }
      }
    }
    case undefined:
      return trimmed === ''
        ? { type: 'unsupported', reason: 'empty URI' }
        : { type: 'unsupported', reason: 'URI without a scheme' }
    default:
      return { type: 'unsupported', reason: `unsupported URI scheme ${scheme.slice(0, 20)}` }
  }
}

/** An image or link from metadata as something a browser can load (ipfs/ar via gateways). */
export function displayUrl({
  url,
  ipfsGateway = DEFAULT_IPFS_GATEWAY,
}: {
  url: string
  ipfsGateway?: string
}): string | undefined {
  const trimmed = url.trim()
  if (/^ipfs:/i.test(trimmed)) {
    const path = ipfsPath(trimmed)
    return path ? joinGateway(ipfsGateway, path) : undefined
  }
  if (/^ar:\/\//i.test(trimmed)) return `https://arweave.net/${trimmed.slice(5)}`
  if (/^(https?:|data:image\/)/i.test(trimmed)) return trimmed
  return undefined
}

function ipfsPath(uri: string): string | undefined {
  const path = uri
    .replace(/^ipfs:(\/\/)?/i, '')
    .replace(/^ipfs\//i, '')
    .replace(/^\/+/, '')
  return path === '' ? undefined : path
}

function joinGateway(gateway: string, path: string): string {
  return `${gateway.endsWith('/') ? gateway : `${gateway}/`}${path}`
}

/**
 * A `data:[<media type>][;base64],<data>` URI (RFC 2397): its media type (default
 * text/plain) and bytes; percent-encoding is undone when not base64. Undefined when malformed.
 */
export function parseDataUri(uri: string): { mediaType: string; body: Buffer } | undefined {
  const comma = uri.indexOf(',')
  if (!/^data:/i.test(uri) || comma < 0) return undefined
  const params = uri
    .slice(5, comma)
    .split(';')
    .map((p) => p.trim())
  const base64 = params.at(-1)?.toLowerCase() === 'base64'
  if (base64) params.pop()
  const mediaType = (params[0] || 'text/plain').toLowerCase()
  const data = uri.slice(comma + 1)
  if (base64) {
    const clean = data.replace(/%([0-9a-f]{2})/gi, (_, h) =>
      String.fromCharCode(Number.parseInt(h, 16)),
    )
    if (!/^[A-Za-z0-9+/=_\-\s]*$/.test(clean)) return undefined
    return { mediaType, body: Buffer.from(clean.replace(/\s/g, ''), 'base64') }
  }
  try {
    return { mediaType, body: Buffer.from(decodeURIComponent(data), 'utf8') }
  } catch {
    // A stray '%' in unencoded JSON is common; take the text as it is.
    return { mediaType, body: Buffer.from(data, 'utf8') }
  }
}
