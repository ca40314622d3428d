import { type Command, InvalidArgumentError } from 'commander'
import { type ApiKeyInfo, createAccounts } from '../../accounts/createAccounts.ts'
import { currentPeriod } from '../../accounts/createMeter.ts'
import {
  isResponseProfile,
  RESPONSE_PROFILES,
  type ResponseProfile,
} from '../../config/responseProfiles.ts'
import type { ConfigFlags, ScryConfig } from '../../config/types.ts'
import { NonRetryableError } from '../../internal/errors.ts'
import { createStore } from '../../store/createStore.ts'
import { formatTable } from '../formatTable.ts'

/** What `scry keys …` was asked to do. */
export type KeysAction =
  | {
      type: 'create'
      name: string
      cuQuota?: number
      rps?: number
      accountId?: string
      profile?: ResponseProfile
      json: boolean
    }
  | { type: 'list'; json: boolean }
  | { type: 'revoke'; id: string }
  | {
      type: 'set'
      id: string
      changes: {
        name?: string
        cuQuota?: number | null
        rps?: number | null
        profile?: ResponseProfile | null
      }
    }

/** A `keys` request that cannot be done (unknown id, nothing to change): message, exit 1. */
export class KeysError extends NonRetryableError {
  override name = 'KeysError'
}

type DatabaseFlags = Pick<ConfigFlags, 'config' | 'database' | 'dataDir'>

/**
 * Adds `scry keys create|list|revoke|set`. Each subcommand takes the database options of
 * `start` and reports `{ ...databaseFlags, keys: KeysAction }` through `onCommand`, so that
 * the configuration is resolved the same way as for every other command.
 */
export function addKeysCommand({
  program,
  onCommand,
}: {
  program: Command
  onCommand: (options: DatabaseFlags & { keys: KeysAction }) => void
}): void {
  const keys = program
    .command('keys')
    .description('create, list, revoke and change API keys (quota, rate)')
  const sub = (name: string, description: string) =>
    keys
      .command(name)
      .description(description)
      .option('--config <path>', 'config file (default: ./scry.config.ts or ./scry.config.json)')
      .option(
        '--database <url|path>',
        'postgres:// URL or SQLite file (default: <data-dir>/scry.sqlite)',
      )
      .option('--data-dir <path>', 'directory for local state (default: .scry)')
  const flags = (options: Record<string, unknown>): DatabaseFlags => ({
    config: options.config as string | undefined,
    database: options.database as string | undefined,
    dataDir: options.dataDir as string | undefined,
  })

  sub('create', 'create a key (and a new account unless --account is given); prints it once')
    .requiredOption('--name <name>', 'a name for the key (and its new account)', keyName)
    .option('--cu-quota <n>', 'compute units per calendar month for the account', quota)
    .option('--rps <n>', 'requests per second for the key', rate)
    .option('--account <id>', 'add the key to this existing account')
    .option(
      `--profile <${RESPONSE_PROFILES.join('|')}>`,
      "answer shape for this key (default: the server's, config server.responseProfile)",
      profile,
    )
    .option('--json', 'print one JSON object')
    .action((options: Record<string, unknown>) =>
      onCommand({
        ...flags(options),
        keys: {
          type: 'create',
          name: options.name as string,
          json: options.json === true,
          ...(options.cuQuota !== undefined ? { cuQuota: options.cuQuota as number } : {}),
          ...(options.rps !== undefined ? { rps: options.rps as number } : {}),
          ...(options.account !== undefined ? { accountId: options.account as string } : {}),
          ...(options.profile !== undefined ? { profile: options.profile as ResponseProfile } : {}),
        },
      }),
    )

  sub('list', 'list keys with their quota, usage this month and rate')
    .option('--json', 'print one JSON object')
    .action((options: Record<string, unknown>) =>
      onCommand({ ...flags(options), keys: { type: 'list', json: options.json === true } }),
    )

  sub('revoke', 'revoke a key (takes effect within seconds)')
    .argument('<id>', 'key id, as shown by `scry keys list`')
    .action((id: string, options: Record<string, unknown>) =>
      onCommand({ ...flags(options), keys: { type: 'revoke', id } }),
    )

  sub('set', "change a key's name, rate, profile, or its account's quota")
    .argument('<id>', 'key id, as shown by `scry keys list`')
    .option('--name <name>', 'new name of the key', keyName)
    .option(
      '--cu-quota <n|none>',
      'compute units per month for the account, or none',
      orNone(quota),
    )
    .option('--rps <n|none>', 'requests per second for the key, or none', orNone(rate))
    .option(
      `--profile <${RESPONSE_PROFILES.join('|')}|none>`,
      "answer shape for the key, or none for the server's",
      orNone(profile),
    )
    .action((id: string, options: Record<string, unknown>) =>
      onCommand({
        ...flags(options),
        keys: {
          type: 'set',
          id,
          changes: {
            ...(options.name !== undefined ? { name: options.name as string } : {}),
            ...(options.cuQuota !== undefined ? { cuQuota: noneToNull(options.cuQuota) } : {}),
            ...(options.rps !== undefined ? { rps: noneToNull(options.rps) } : {}),
            ...(options.profile !== undefined ? { profile: noneToNull(options.profile) } : {}),
          },
        },
      }),
    )
}

/** Runs one `keys` action against the configured database. */
export async function runKeys({
  config,
  action,
  write,
}: {
  config: ScryConfig
  action: KeysAction
  write: (text: string) => void
}): Promise<number> {
  const store = createStore({ url: config.database, mustExist: true })
  try {
    await store.ping()
    const accounts = createAccounts({ store, cacheMs: 0 })
    const findKey = async (id: string) => {
      const known = (await accounts.listKeys()).find((k) => k.id === id)
      if (!known) throw new KeysError(`No API key with id ${id}.`)
      return known
    }
    switch (action.type) {
      case 'create': {
        if (action.accountId !== undefined) {
          const account = await store.db
            .selectFrom('accounts')
            .select('id')
            .where('id', '=', action.accountId)
            .executeTakeFirst()
          if (!account) throw new KeysError(`No account with id ${action.accountId}.`)
        }
        const { key, info } = await accounts.createKey({
          name: action.name,
          ...(action.accountId !== undefined ? { accountId: action.accountId } : {}),
          ...(action.rps !== undefined ? { rps: action.rps } : {}),
          ...(action.cuQuota !== undefined ? { cuQuota: action.cuQuota } : {}),
          ...(action.profile !== undefined ? { profile: action.profile } : {}),
        })
        // An existing account keeps its quota unless one is given.
        const created =
          action.accountId !== undefined && action.cuQuota !== undefined
            ? ((await accounts.setKey(info.id, { cuQuota: action.cuQuota })) ?? info)
            : info
        if (action.json) {
          write(`${JSON.stringify({ ...keyJson(created, undefined), key })}\n`)
        } else {
          write(
            `Created key ${created.id} (account ${created.accountId}).\n` +
              `API key: ${key}\n` +
              'Store it now: it is not shown again.\n',
          )
        }
        return 0
      }
      case 'list': {
        const keys = await accounts.listKeys()
        const usage = await store.db
          .selectFrom('usage')
          .select(['account_id', 'cu_used'])
          .where('period', '=', currentPeriod())
          .execute()
        const used = new Map(usage.map((u) => [u.account_id, u.cu_used]))
        if (action.json) {
          write(
            `${JSON.stringify({ keys: keys.map((k) => keyJson(k, used.get(k.accountId) ?? 0)) })}\n`,
          )
          return 0
        }
        if (keys.length === 0) {
          write('No API keys yet (create one with `scry keys create --name <name>`).\n')
          return 0
        }
        const header = [
          'id',
          'name',
          'account',
          'quota',
          'used',
          'rps',
          'profile',
          'created',
          'revoked',
        ]
        const rows = keys.map((k) => [
          k.id,
          k.name,
          k.accountId,
          k.cuQuota === null ? 'unlimited' : String(k.cuQuota),
          String(used.get(k.accountId) ?? 0),
          k.rps === null ? 'unlimited' : String(k.rps),
          k.profile ?? 'server',
          formatDate(k.createdAt),
          k.revokedAt === null ? '-' : formatDate(k.revokedAt),
        ])
        write(formatTable([header, ...rows]))
        return 0
      }
      case 'revoke': {
        const known = await findKey(action.id)
        if (known.revokedAt !== null) {
          write(`Key ${action.id} was already revoked.\n`)
          return 0
        }
        await accounts.revokeKey(action.id)
        write(`Revoked key ${action.id}.\n`)
        return 0
      }
      case 'set': {
        if (Object.keys(action.changes).length === 0) {
          throw new KeysError('Nothing to change: give --name, --cu-quota, --rps or --profile.')
        }
        const known = await findKey(action.id)
        if (known.revokedAt !== null) {
          // Its settings apply to nothing; an account quota is changed through a live key.
          throw new KeysError(
            `Key ${action.id} was revoked on ${formatDate(known.revokedAt)}; it cannot be changed.`,
            {
              details: `Create a new key for its account instead: scry keys create --account ${known.accountId} --name <name>.`,
            },
          )
        }
        const info = await accounts.setKey(action.id, action.changes)
        if (!info) throw new KeysError(`No API key with id ${action.id}.`)
        write(
          `Updated key ${info.id}: name ${info.name}, quota ${info.cuQuota ?? 'unlimited'}, rps ${info.rps ?? 'unlimited'}, profile ${info.profile ?? 'server'}.\n`,
        )
        return 0
      }
      default: {
        const unknown: never = action
        throw new Error(`unknown keys action ${JSON.stringify(unknown)}`)
      }
    }
  } finally {
    await store.close()
  }
}

function keyJson(k: ApiKeyInfo, cuUsed: number | undefined) {
  return {
    id: k.id,
    name: k.name,
    account_id: k.accountId,
    account_name: k.accountName,
    cu_quota: k.cuQuota,
    ...(cuUsed === undefined ? {} : { cu_used: cuUsed, period: currentPeriod() }),
    rps: k.rps,
    profile: k.profile,
    created_at: formatDate(k.createdAt),
    revoked_at: k.revokedAt === null ? null : formatDate(k.revokedAt),
  }
}

function formatDate(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00')
}

function wholeNumber(value: string, min: number): number {
  const n = Number(value)
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(n) || n < min) {
    throw new InvalidArgumentError(`expected a whole number of at least ${min}.`)
  }
  return n
}

function quota(value: string): number {
  return wholeNumber(value, 0)
}

function rate(value: string): number {
  return wholeNumber(value, 1)
}

function profile(value: string): ResponseProfile {
  if (!isResponseProfile(value)) {
    throw new InvalidArgumentError(`expected one of ${RESPONSE_PROFILES.join(', ')}.`)
  }
  return value
}

// Commander turns a parser's `null` into `true`, so "none" travels as itself until here.
function orNone<T>(parse: (value: string) => T): (value: string) => T | 'none' {
  return (value) => {
    if (value === 'none') return 'none'
    try {
      return parse(value)
    } catch (error) {
      if (!(error instanceof InvalidArgumentError)) throw error
      throw new InvalidArgumentError(`${error.message.replace(/\.$/, '')}, or none.`)
    }
  }
}

/** A key's name: shown in `keys list` and the API's usage; not empty, one line. */
function keyName(value: string): string {
  const name = value.trim()
  if (name === '' || name.length > 200 || /\p{Cc}/u.test(name)) {
    throw new InvalidArgumentError('expected a name of 1 to 200 characters on one line.')
  }
  return name
}

function noneToNull<T>(value: unknown): T | null {
  return value === 'none' ? null : (value as T)
}
