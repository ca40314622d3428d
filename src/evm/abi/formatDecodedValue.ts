import type { AbiParameter } from 'viem'

/**
 * A decoded ABI value at the API edge, as the hosted API's published schema has it: a string
 * or an array of strings. Numbers, addresses, bools and bytes are strings; an array of those
 * is an array of strings; a tuple, or an array element that is a tuple or an array itself, is
 * the JSON text of its structure (tuples as objects keyed by component name when every
 * component is named, otherwise as arrays in component order).
 */
export type DecodedValue = string | string[]

type Structured = string | Structured[] | { [name: string]: Structured }

/** The canonical type of a parameter, tuples spelled out: `(address,uint256)[]`. */
export function canonicalType(param: AbiParameter): string {
  if (!param.type.startsWith('tuple')) return param.type
  const components = 'components' in param ? param.components : []
  return `(${components.map(canonicalType).join(',')})${param.type.slice('tuple'.length)}`
}

export function formatDecodedValue({
  param,
  value,
}: {
  param: AbiParameter
  value: unknown
}): DecodedValue {
  const structured = structure({ param, value })
  if (typeof structured === 'string') return structured
  if (Array.isArray(structured) && ARRAY.test(param.type)) {
    return structured.map((e) => (typeof e === 'string' ? e : JSON.stringify(e)))
  }
  return JSON.stringify(structured)
}

const ARRAY = /^(.*)\[\d*\]$/

function structure({ param, value }: { param: AbiParameter; value: unknown }): Structured {
  const array = ARRAY.exec(param.type)
  if (array) {
    const element = { ...param, type: array[1] as string }
    return Array.isArray(value) ? value.map((v) => structure({ param: element, value: v })) : []
  }
  if (param.type === 'tuple') {
    const components = 'components' in param ? param.components : []
    const named = components.length > 0 && components.every((c) => c.name)
    const at = (c: AbiParameter, i: number): unknown =>
      Array.isArray(value)
        ? value[i]
        : c.name && value !== null && typeof value === 'object'
          ? (value as Record<string, unknown>)[c.name]
          : undefined
    if (named) {
      return Object.fromEntries(
        components.map((c, i) => [c.name as string, structure({ param: c, value: at(c, i) })]),
      )
    }
    return components.map((c, i) => structure({ param: c, value: at(c, i) }))
  }
  if (param.type === 'address' && typeof value === 'string') return value.toLowerCase()
  if (typeof value === 'string') return value
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean')
    return String(value)
  return ''
}
