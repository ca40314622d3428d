import { BaseError, NonRetryableError } from '../internal/errors.ts'
import { type SafeFetchOptions, safeFetch } from '../net/safeFetch.ts'
import type { NftStandard } from '../store/schema.ts'
import { resolveTokenUri, substituteTokenId } from './resolveTokenUri.ts'
import { parseMetadataJson, type ShapedMetadata, shapeMetadata } from './shapeMetadata.ts'

export type LoadMetadataOptions = {
  /** What tokenURI/uri returned. */
  rawUri: string
  standard: NftStandard
  tokenId: bigint
  ipfsGateway: string
  allowPrivate: boolean
  maxBytes: number
  timeoutMs: number
  /** See `safeFetch`. */
  lookup?: SafeFetchOptions['lookup']
  signal?: AbortSignal
}

export type LoadedMetadata = { uri: string; metadata: ShapedMetadata }

/** The document is not metadata Scry can read; retrying will not help. */
export class InvalidMetadataError extends NonRetryableError {
  override name = 'InvalidMetadataError'
}

/**
 * Reads one token's metadata document from the URI its contract gave: `data:` decoded in
 * place, everything else fetched with `safeFetch`. Throws a `NonRetryableError` for what a
 * retry cannot fix and another `BaseError` for what it might.
 */
export async function loadMetadata({
  rawUri,
  standard,
  tokenId,
  ipfsGateway,
  allowPrivate,
  maxBytes,
  timeoutMs,
  lookup,
  signal,
}: LoadMetadataOptions): Promise<LoadedMetadata> {
  const uri = substituteTokenId({ uri: rawUri, standard, tokenId })
  const source = resolveTokenUri({ uri, ipfsGateway })
  let body: Buffer
  switch (source.type) {
    case 'unsupported':
      throw new InvalidMetadataError(`Cannot read metadata: ${source.reason}.`)
    case 'data':
      if (!/json|text\/plain/.test(source.mediaType)) {
        throw new InvalidMetadataError(
          `The data: URI holds ${source.mediaType.slice(0, 60)}, not JSON.`,
        )
      }
      body = source.body
      break
    case 'http':
      body = (
        await safeFetch({
          url: source.url,
          allowPrivate,
          maxBytes,
          timeoutMs,
          ...(lookup ? { lookup } : {}),
          ...(signal ? { signal } : {}),
        })
      ).body
      break
    default:
      throw new BaseError(`unexpected source ${(source satisfies never as { type: string }).type}`)
  }
  if (body.length > maxBytes) {
    throw new InvalidMetadataError(`The metadata is larger than ${maxBytes} bytes.`)
  }
  const doc = parseMetadataJson(body)
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new InvalidMetadataError('The metadata is not a JSON object.')
  }
  return { uri, metadata: shapeMetadata(doc) }
}
