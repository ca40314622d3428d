import { BaseError } from '../internal/errors.ts'
import {
  ACTIVITY_TYPES,
  ASSET_TYPES_BY_TYPE,
  FILTERS_BY_TYPE,
  type FilterName,
  SUBSCRIPTION_TYPES,
  type SubscriptionFilters,
  type SubscriptionType,
} from './subscription.ts'

/** A subscription field the rules refuse; the message is safe to show the subscriber. */
export class InvalidSubscriptionError extends BaseError {
  override name = 'InvalidSubscriptionError'
}

export const MAX_ADDRESSES = 1000
export const MAX_CHAINS = 100
const ADDRESS = /^0x[a-fA-F0-9]{40}$/

/** Filter fields as a request gives them (JSON; lists as arrays or comma-separated text). */
export type FilterInput = {
  activity_type?: string | string[] | null | undefined
  asset_type?: string | string[] | null | undefined
  token_address?: string | null | undefined
  transaction_type?: string | null | undefined
  counterparty?: string | null | undefined
}

export function parseType(value: string): SubscriptionType {
  if (!SUBSCRIPTION_TYPES.includes(value as SubscriptionType)) {
    throw new InvalidSubscriptionError(
      `type must be one of ${SUBSCRIPTION_TYPES.join(', ')}; got ${show(value)}.`,
    )
  }
  return value as SubscriptionType
}

export function parseAddresses(input: string | readonly string[], field: string): string[] {
  const values = typeof input === 'string' ? [input] : input
  for (const a of values) {
    if (!ADDRESS.test(a))
      throw new InvalidSubscriptionError(`${field}: ${show(a)} is not an address.`)
  }
  return [...new Set(values.map((a) => a.toLowerCase()))]
}

export function checkAddressCount(addresses: readonly string[]): void {
  if (addresses.length === 0) throw new InvalidSubscriptionError('addresses must not be empty.')
  if (addresses.length > MAX_ADDRESSES) {
    throw new InvalidSubscriptionError(`A subscription holds at most ${MAX_ADDRESSES} addresses.`)
  }
}

export function parseChainIds(
  input: number | readonly number[],
  enabled: ReadonlySet<number>,
): number[] {
  const ids = [...new Set(typeof input === 'number' ? [input] : input)].sort((a, b) => a - b)
  if (ids.length === 0) throw new InvalidSubscriptionError('chain_ids must not be empty.')
  if (ids.length > MAX_CHAINS) {
    throw new InvalidSubscriptionError(`chain_ids holds at most ${MAX_CHAINS} chains.`)
  }
  const missing = ids.filter((id) => !enabled.has(id))
  if (missing.length > 0) {
    throw new InvalidSubscriptionError(
      `chain_ids: ${missing.slice(0, 10).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not indexed by this instance.`,
    )
  }
  return ids
}

/**
 * The filters of a create or update: each must fit the type (else 400), values are checked
 * and normalized; `null` clears a filter (updates), `undefined` keeps `current`.
 */
export function parseFilters({
  type,
  input,
  current = {},
}: {
  type: SubscriptionType
  input: FilterInput
  current?: SubscriptionFilters
}): SubscriptionFilters {
  const out: SubscriptionFilters = { ...current }
  const allowed = FILTERS_BY_TYPE[type]
  for (const name of Object.keys(input) as FilterName[]) {
    const value = input[name]
    if (value === undefined) continue
    // `null` is "no such filter", whatever the type (clients generated from the published
    // schemas send every nullable field), so it never conflicts with the type.
    if (value === null) {
      delete out[name]
      continue
    }
    if (!allowed.includes(name)) {
      throw new InvalidSubscriptionError(
        `${name} does not apply to ${type} subscriptions (they take ${allowed.join(', ')}).`,
      )
    }
    switch (name) {
      case 'activity_type': {
        const list = parseList(value, name, [...ACTIVITY_TYPES, 'transfer'])
        out.activity_type = [
          ...new Set(list.flatMap((t) => (t === 'transfer' ? ['send', 'receive'] : [t]))),
        ]
        break
      }
      case 'asset_type':
        out.asset_type = parseList(
          value,
          name,
          ASSET_TYPES_BY_TYPE[type as 'balances' | 'activities'],
        )
        break
      case 'token_address':
      case 'counterparty': {
        const text = String(value)
        if (!ADDRESS.test(text)) {
          throw new InvalidSubscriptionError(`${name}: ${show(text)} is not an address.`)
        }
        out[name] = text.toLowerCase()
        break
      }
      case 'transaction_type':
        if (value !== 'sender' && value !== 'receiver') {
          throw new InvalidSubscriptionError(
            `transaction_type must be sender or receiver; got ${show(String(value))}.`,
          )
        }
        out.transaction_type = value
        break
      default: {
        const never: never = name
        throw new InvalidSubscriptionError(`Unknown filter ${String(never)}.`)
      }
    }
  }
  return out
}

function parseList(value: string | string[], name: string, allowed: readonly string[]): string[] {
  const list = (Array.isArray(value) ? value : value.split(','))
    .map((v) => String(v).trim())
    .filter((v) => v !== '')
  if (list.length === 0) throw new InvalidSubscriptionError(`${name} must not be empty.`)
  for (const v of list) {
    if (!allowed.includes(v)) {
      throw new InvalidSubscriptionError(`${name}: ${show(v)} is not one of ${allowed.join(', ')}.`)
    }
  }
  return [...new Set(list)]
}

function show(value: string): string {
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)
}
