import type { Abi } from 'viem'
import { BaseError } from '../../internal/errors.ts'

export class InvalidAbiError extends BaseError {
  override name = 'InvalidAbiError'
}

const ITEM_TYPES = new Set(['function', 'event', 'error', 'constructor', 'fallback', 'receive'])
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/
const ELEMENTARY =
  /^(address|bool|string|bytes([1-9]|[12][0-9]|3[0-2])?|u?int(8|16|24|32|40|48|56|64|72|80|88|96|104|112|120|128|136|144|152|160|168|176|184|192|200|208|216|224|232|240|248|256)?|function|tuple)(\[\d*\])*$/
const MAX_DEPTH = 16

/**
 * Validates an ABI given as JSON: an array of fragments (a compiler artifact's `{ abi: [...] }`
 * is accepted too). Throws `InvalidAbiError` saying which fragment is wrong.
 */
export function parseAbiJson(text: string): Abi {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new InvalidAbiError('The ABI is not valid JSON.', {
      details: error instanceof Error ? error.message : String(error),
    })
  }
  return validateAbi(parsed)
}

export function validateAbi(value: unknown): Abi {
  const items =
    value !== null && typeof value === 'object' && !Array.isArray(value) && 'abi' in value
      ? (value as { abi: unknown }).abi
      : value
  if (!Array.isArray(items)) throw new InvalidAbiError('An ABI must be a JSON array of fragments.')
  if (items.length === 0) throw new InvalidAbiError('The ABI has no fragments.')
  items.forEach((item, i) => {
    const where = `fragment ${i}`
    if (item === null || typeof item !== 'object' || Array.isArray(item))
      throw new InvalidAbiError(`The ABI's ${where} is not an object.`)
    const { type, name, inputs, outputs } = item as Record<string, unknown>
    if (typeof type !== 'string' || !ITEM_TYPES.has(type))
      throw new InvalidAbiError(
        `The ABI's ${where} has type ${JSON.stringify(type)}; expected one of ${[...ITEM_TYPES].join(', ')}.`,
      )
    if (type === 'function' || type === 'event' || type === 'error') {
      if (typeof name !== 'string' || !IDENTIFIER.test(name))
        throw new InvalidAbiError(`The ABI's ${where} (${type}) has no valid name.`)
    }
    if (type !== 'fallback' && type !== 'receive') checkParams(inputs, `${where} inputs`, 0)
    if (type === 'function' && outputs !== undefined) checkParams(outputs, `${where} outputs`, 0)
  })
  return items as Abi
}

function checkParams(params: unknown, where: string, depth: number): void {
  if (depth > MAX_DEPTH) throw new InvalidAbiError(`The ABI's ${where} nest too deeply.`)
  if (!Array.isArray(params)) throw new InvalidAbiError(`The ABI's ${where} are not an array.`)
  params.forEach((param, i) => {
    if (param === null || typeof param !== 'object')
      throw new InvalidAbiError(`The ABI's ${where}[${i}] is not an object.`)
    const { type, name, components } = param as Record<string, unknown>
    if (typeof type !== 'string' || !ELEMENTARY.test(type))
      throw new InvalidAbiError(
        `The ABI's ${where}[${i}] has an invalid type ${JSON.stringify(type)}.`,
      )
    if (name !== undefined && (typeof name !== 'string' || (name !== '' && !IDENTIFIER.test(name))))
      throw new InvalidAbiError(`The ABI's ${where}[${i}] has an invalid name.`)
    if (type.startsWith('tuple')) checkParams(components, `${where}[${i}] components`, depth + 1)
  })
}
