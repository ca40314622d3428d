/** One attribute of an NFT as the API returns it. */
export type NftAttribute = {
  trait_type?: string
  value: string | number | boolean
  display_type?: string
  max_value?: number
}

/** The fields Scry keeps from a metadata document. */
export type ShapedMetadata = {
  name?: string
  description?: string
  /** As the document gave it (image, else image_url); resolved for display by the caller. */
  image?: string
  attributes?: NftAttribute[]
}

const MAX_NAME = 256
const MAX_DESCRIPTION = 4096
// Onchain SVG images come as data: URLs; a longer one is dropped rather than cut.
const MAX_URL = 32 * 1024
const MAX_ATTRIBUTES = 100
const MAX_VALUE = 512
const CONTROL = /[\p{Cc}]/gu

/**
 * The parts of an ERC721/ERC1155 metadata JSON document that Scry serves, cleaned: strings
 * only where strings belong, control characters removed, lengths capped, at most 100
 * attributes. Anything else in the document is ignored; a document that is not an object
 * gives `{}`. Pure; never throws on hostile input.
 */
export function shapeMetadata(raw: unknown): ShapedMetadata {
  if (!isRecord(raw)) return {}
  // Own properties only: nothing is read through a prototype.
  const doc = Object.fromEntries(Object.entries(raw)) as Record<string, unknown>
  const out: ShapedMetadata = {}
  const name = text(doc.name, MAX_NAME)
  if (name !== undefined) out.name = name
  const description = text(doc.description, MAX_DESCRIPTION, { keepNewlines: true })
  if (description !== undefined) out.description = description
  const image = url(doc.image) ?? url(doc.image_url)
  if (image !== undefined) out.image = image
  const attributes = shapeAttributes(doc.attributes ?? doc.traits ?? doc.properties)
  if (attributes.length > 0) out.attributes = attributes
  return out
}

/** Parses a metadata document's bytes as JSON; undefined when it is not JSON. */
export function parseMetadataJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8').replace(/^\uFEFF/, ''))
  } catch {
    return undefined
  }
}

function shapeAttributes(raw: unknown): NftAttribute[] {
  const out: NftAttribute[] = []
  if (Array.isArray(raw)) {
    for (const item of raw) {
      if (out.length >= MAX_ATTRIBUTES) break
      if (!isRecord(item)) continue
      const value = primitive(item.value)
      if (value === undefined) continue
      const attribute: NftAttribute = { value }
      const trait = text(item.trait_type, MAX_NAME)
      if (trait !== undefined) attribute.trait_type = trait
      const display = text(item.display_type, MAX_NAME)
      if (display !== undefined) attribute.display_type = display
      if (typeof item.max_value === 'number' && Number.isFinite(item.max_value)) {
        attribute.max_value = item.max_value
      }
      out.push(attribute)
    }
  } else if (isRecord(raw)) {
    // Some collections give a { trait: value } map instead of the usual array.
    for (const [key, v] of Object.entries(raw)) {
      if (out.length >= MAX_ATTRIBUTES) break
      const value = primitive(v)
      const trait = text(key, MAX_NAME)
      if (value !== undefined && trait !== undefined) out.push({ trait_type: trait, value })
    }
  }
  return out
}

function url(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_URL) return undefined
  const cleaned = value.replace(CONTROL, '').trim()
  return cleaned === '' ? undefined : cleaned
}

function primitive(value: unknown): string | number | boolean | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined
  if (typeof value === 'boolean') return value
  return text(value, MAX_VALUE)
}

function text(
  value: unknown,
  max: number,
  { keepNewlines = false }: { keepNewlines?: boolean } = {},
): string | undefined {
  if (typeof value !== 'string') return undefined
  const cleaned = (
    keepNewlines
      ? value.replace(CONTROL, (c) => (c === '\n' ? c : c === '\t' || c === '\r' ? ' ' : ''))
      : value.replace(CONTROL, '')
  ).trim()
  if (cleaned === '') return undefined
  const chars = Array.from(cleaned)
  return chars.length > max ? chars.slice(0, max).join('') : cleaned
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
