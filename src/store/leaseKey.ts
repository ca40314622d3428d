/**
 * The PostgreSQL advisory lock key of a chain's writer (`holdChainLease`): a fixed prefix
 * ("SC") above the chain id, so that keys of other users of the database differ.
 */
export const leaseKey = (chainId: number): bigint => (0x5343n << 48n) + BigInt(chainId)

/** `application_name` of an indexer's lock session (`holdChainLease`), as the server lists it. */
export const LEASE_APPLICATION = 'scry-lease'
