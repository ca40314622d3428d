import { createHash, randomBytes } from 'node:crypto'
import { isResponseProfile, type ResponseProfile } from '../config/responseProfiles.ts'
import type { Store } from '../store/createStore.ts'

export type ApiKeyInfo = {
  id: string
  name: string
  accountId: string
  accountName: string
  cuQuota: number | null
  rps: number | null
  createdAt: number
  revokedAt: number | null
  /** Response profile of the key's answers; null = the server's default. */
  profile: ResponseProfile | null
}

/** What a request's key resolves to. */
export type ResolvedKey = {
  keyId: string
  accountId: string
  cuQuota: number | null
  rps: number | null
  /** null = the server's default. */
  profile: ResponseProfile | null
}

export type Accounts = {
  /** Creates a key (and its account unless `accountId` is given); the key is returned once. */
  createKey(args: {
    name: string
    accountId?: string
    cuQuota?: number | null
    rps?: number | null
    profile?: ResponseProfile | null
  }): Promise<{ key: string; info: ApiKeyInfo }>
  listKeys(): Promise<ApiKeyInfo[]>
  revokeKey(id: string): Promise<boolean>
  /** Changes a key's rate, profile, name, or its account's quota. */
  setKey(
    id: string,
    changes: {
      name?: string
      cuQuota?: number | null
      rps?: number | null
      profile?: ResponseProfile | null
    },
  ): Promise<ApiKeyInfo | undefined>
  /** Looks a presented key up (cached briefly: revocation takes effect within `cacheMs`). */
  resolve(key: string): Promise<ResolvedKey | undefined>
}

const KEY_PREFIX = 'scry_'

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex')
}

/** Accounts and API keys in the store; keys are stored as SHA-256 hashes only. */
export function createAccounts({
  store,
  cacheMs = 5_000,
}: {
  store: Store
  cacheMs?: number
}): Accounts {
  const db = store.db
  const cache = new Map<string, { value: ResolvedKey | undefined; until: number }>()
  const now = () => Math.floor(Date.now() / 1000)

  const info = async (id: string): Promise<ApiKeyInfo | undefined> =>
    (await list()).find((k) => k.id === id)

  const list = async (): Promise<ApiKeyInfo[]> => {
    const rows = await db
      .selectFrom('api_keys')
      .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
      .select([
        'api_keys.id as id',
        'api_keys.name as name',
        'api_keys.account_id as accountId',
        'accounts.name as accountName',
        'accounts.cu_quota as cuQuota',
        'api_keys.rps as rps',
        'api_keys.created_at as createdAt',
        'api_keys.revoked_at as revokedAt',
        'api_keys.profile as profile',
      ])
      .orderBy('api_keys.created_at')
      .orderBy('api_keys.id')
      .execute()
    return rows.map((row) => ({ ...row, profile: toProfile(row.profile) }))
  }

  return {
    async createKey({ name, accountId, cuQuota = null, rps = null, profile = null }) {
      const key = `${KEY_PREFIX}${randomBytes(24).toString('base64url')}`
      const id = `key_${randomBytes(6).toString('hex')}`
      await db.transaction().execute(async (trx) => {
        let account = accountId
        if (account === undefined) {
          account = `acct_${randomBytes(6).toString('hex')}`
          await trx
            .insertInto('accounts')
            .values({ id: account, name, cu_quota: cuQuota, created_at: now() })
            .execute()
        }
        await trx
          .insertInto('api_keys')
          .values({
            id,
            account_id: account,
            name,
            key_hash: hashKey(key),
            rps,
            profile,
            created_at: now(),
            revoked_at: null,
          })
          .execute()
      })
      return { key, info: (await info(id)) as ApiKeyInfo }
    },
    listKeys: list,
    async revokeKey(id) {
      const result = await db
        .updateTable('api_keys')
        .set({ revoked_at: now() })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst()
      cache.clear()
      return Number(result.numUpdatedRows) > 0
    },
    async setKey(id, { name, cuQuota, rps, profile }) {
      const key = await info(id)
      if (!key) return undefined
      if (name !== undefined || rps !== undefined || profile !== undefined) {
        await db
          .updateTable('api_keys')
          .set({
            ...(name !== undefined ? { name } : {}),
            ...(rps !== undefined ? { rps } : {}),
            ...(profile !== undefined ? { profile } : {}),
          })
          .where('id', '=', id)
          .execute()
      }
      if (cuQuota !== undefined) {
        await db
          .updateTable('accounts')
          .set({ cu_quota: cuQuota })
          .where('id', '=', key.accountId)
          .execute()
      }
      cache.clear()
      return info(id)
    },
    async resolve(key) {
      const hash = hashKey(key)
      const hit = cache.get(hash)
      if (hit && hit.until > Date.now()) return hit.value
      const row = await db
        .selectFrom('api_keys')
        .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
        .select([
          'api_keys.id as keyId',
          'api_keys.account_id as accountId',
          'accounts.cu_quota as cuQuota',
          'api_keys.rps as rps',
          'api_keys.profile as profile',
        ])
        .where('api_keys.key_hash', '=', hash)
        .where('api_keys.revoked_at', 'is', null)
        .executeTakeFirst()
      const value = row ? { ...row, profile: toProfile(row.profile) } : undefined
      if (cache.size > 10_000) cache.clear()
      cache.set(hash, { value, until: Date.now() + cacheMs })
      return value
    },
  }
}

/** A stored profile this version does not know answers in the server's default. */
function toProfile(stored: string | null): ResponseProfile | null {
  return isResponseProfile(stored) ? stored : null
}
