import { sql } from 'kysely'

/**
 * The PostgreSQL advisory lock key of a chain's writer (`holdChainLease`): a fixed prefix
 * ("SC") above the chain id, so that keys of other users of the database differ.
 */
export const leaseKey = (chainId: number): bigint => (0x5343n << 48n) + BigInt(chainId)

/** `application_name` of an indexer's lock session (`holdChainLease`), as the server lists it. */
export const LEASE_APPLICATION = 'scry-lease'

/**
 * SQL, a table of the granted advisory locks of this database (advisory locks are the
 * server's: another database on it may hold the same keys): the holding session's `pid` and
 * the lock's `key` (a bigint, as `leaseKey` gives it).
 */
export const HELD_ADVISORY_LOCKS = sql`(
  select pid, (classid::bigint << 32) | objid::bigint as key from pg_locks
  where locktype = 'advisory' and granted and objsubid = 1
    and database = (select oid from pg_database where datname = current_database()))`
