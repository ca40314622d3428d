import { ConfigError } from '../internal/errors.ts'

export type Role = 'api' | 'indexer' | 'webhooks'

export const ROLES: readonly Role[] = ['api', 'indexer', 'webhooks']

/** `--role` values (repeatable, comma-separated); none given means every role. */
export function parseRoles(values: readonly string[] | undefined): ReadonlySet<Role> {
  const given = (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean)
  if (given.length === 0) return new Set(ROLES)
  const unknown = given.filter((v) => !ROLES.includes(v as Role))
  if (unknown.length > 0) {
    throw new ConfigError(`Unknown role ${JSON.stringify(unknown[0]?.slice(0, 40))}.`, {
      details: `--role takes ${ROLES.join(', ')} (repeat it or separate with commas).`,
    })
  }
  return new Set(given as Role[])
}
