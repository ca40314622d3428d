import { ConfigError } from '../internal/errors.ts'

export type Role = 'api' | 'indexer' | 'webhooks'

export const ROLES: readonly Role[] = ['api', 'indexer', 'webhooks']

/** `--role` values (repeatable, comma-separated); none given means every role. */
export function parseRoles(values: readonly string[] | undefined): ReadonlySet<Role> {
  if (values === undefined) return new Set(ROLES)
  const given = values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean)
  // `--role ""` (an empty variable in a script) is a mistake, not "every role".
  if (given.length === 0) {
    throw new ConfigError('--role is empty.', {
      details: `--role takes ${ROLES.join(', ')}; leave it out to run every role.`,
    })
  }
  const unknown = given.filter((v) => !ROLES.includes(v as Role))
  if (unknown.length > 0) {
    throw new ConfigError(`Unknown role ${JSON.stringify(unknown[0]?.slice(0, 40))}.`, {
      details: `--role takes ${ROLES.join(', ')} (repeat it or separate with commas).`,
    })
  }
  return new Set(given as Role[])
}
