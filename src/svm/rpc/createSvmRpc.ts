import {
  createRpcClient,
  type RpcCall,
  type RpcClient,
  type RpcLogger,
} from '../../evm/rpc/createRpcClient.ts'
import { RpcTransportError, RpcUnavailableError } from '../../evm/rpc/errors.ts'
import { parseSvmJson, toBigInt } from './svmJson.ts'

/** Commitment of every read: what a wallet shows right after a transaction lands. */
export const COMMITMENT = 'confirmed'

export type SvmAccount = { address: string; owner: string; lamports: bigint; data: Uint8Array }

export type SignatureInfo = {
  signature: string
  slot: number
  /** Unix seconds, null when the node does not know. */
  blockTime: number | null
  err: unknown
  confirmationStatus: 'processed' | 'confirmed' | 'finalized' | null
}

export type ProgramAccountFilter =
  | { dataSize: number }
  | { memcmp: { offset: number; bytes: string } }

/** The Solana JSON-RPC calls Scry makes, typed; answers parsed losslessly. */
export type SvmRpc = {
  getBalance(address: string, signal?: AbortSignal): Promise<bigint>
  /** Token accounts of `owner` under one token program (raw data). */
  getTokenAccountsByOwner(
    args: { owner: string; programId: string },
    signal?: AbortSignal,
  ): Promise<SvmAccount[]>
  /** Accounts in input order, `undefined` where none exists. */
  getMultipleAccounts(
    addresses: readonly string[],
    signal?: AbortSignal,
  ): Promise<(SvmAccount | undefined)[]>
  getProgramAccounts(
    args: { programId: string; filters: ProgramAccountFilter[] },
    signal?: AbortSignal,
  ): Promise<SvmAccount[]>
  getSignaturesForAddress(
    args: { address: string; limit: number; before?: string | undefined },
    signal?: AbortSignal,
  ): Promise<SignatureInfo[]>
  /** The node's `getTransaction` JSON per signature (parsed losslessly), null when unknown. */
  getTransactions(signatures: readonly string[], signal?: AbortSignal): Promise<unknown[]>
  /** Total supply of the native asset, in base units. */
  getNativeSupply(signal?: AbortSignal): Promise<bigint>
  /** The node's current slot at the reads' commitment. */
  getSlot(signal?: AbortSignal): Promise<number>
  close(): void
}

/** Parameters of every `getTransaction`; the API's `raw_transaction` is the answer to them. */
export const GET_TRANSACTION_CONFIG = {
  encoding: 'json',
  maxSupportedTransactionVersion: 0,
  commitment: COMMITMENT,
} as const

const MULTIPLE_ACCOUNTS_MAX = 100

export function createSvmRpc({
  urls,
  batchSize = 50,
  logger,
}: {
  urls: readonly string[]
  batchSize?: number
  logger?: RpcLogger
}): SvmRpc {
  const client: RpcClient = createRpcClient({
    urls,
    batchSize,
    // A request waits on the node; fail over sooner than the indexer would.
    timeoutMs: 10_000,
    retryCount: 2,
    maxRetryDelayMs: 1_000,
    parseJson: parseSvmJson,
    ...(logger ? { logger } : {}),
  })
  const options = (signal?: AbortSignal) => (signal ? { signal } : {})
  // Some nodes (Surfpool, several providers) refuse JSON-RPC batches: after the first refusal,
  // or with `batchSize` 1, calls go one by one (in parallel, within the client's limit).
  let batches = batchSize > 1

  async function many<T>(calls: RpcCall[], signal?: AbortSignal): Promise<T[]> {
    if (batches && calls.length > 1) {
      try {
        const answers = await client.batch<T>(calls, options(signal))
        return answers.map((answer) => {
          if (!answer.ok) throw answer.error
          return answer.result
        })
      } catch (error) {
        if (!(error instanceof RpcUnavailableError && refusedBatch(error))) throw error
        batches = false
        logger?.warn({}, 'The node refuses JSON-RPC batches; sending calls one by one')
      }
    }
    return Promise.all(calls.map((call) => client.request<T>(call, options(signal))))
  }

  return {
    async getBalance(address, signal) {
      const result = await client.request<{ value: unknown }>(
        { method: 'getBalance', params: [address, { commitment: COMMITMENT }] },
        options(signal),
      )
      return shaped('getBalance', () => toBigInt(result.value))
    },
    async getTokenAccountsByOwner({ owner, programId }, signal) {
      const result = await client.request<{ value: { pubkey: string; account: unknown }[] }>(
        {
          method: 'getTokenAccountsByOwner',
          params: [owner, { programId }, { encoding: 'base64', commitment: COMMITMENT }],
        },
        options(signal),
      )
      return result.value.map((item) =>
        readAccount('getTokenAccountsByOwner', item.pubkey, item.account),
      )
    },
    async getMultipleAccounts(addresses, signal) {
      const chunks: string[][] = []
      for (let i = 0; i < addresses.length; i += MULTIPLE_ACCOUNTS_MAX)
        chunks.push(addresses.slice(i, i + MULTIPLE_ACCOUNTS_MAX))
      const answers = await many<{ value: unknown[] }>(
        chunks.map((chunk) => ({
          method: 'getMultipleAccounts',
          params: [chunk, { encoding: 'base64', commitment: COMMITMENT }],
        })),
        signal,
      )
      return answers.flatMap((answer, i) => {
        const chunk = chunks[i]!
        return chunk.map((address, j) => {
          const account = answer.value[j]
          return account ? readAccount('getMultipleAccounts', address, account) : undefined
        })
      })
    },
    async getProgramAccounts({ programId, filters }, signal) {
      const result = await client.request<{ pubkey: string; account: unknown }[]>(
        {
          method: 'getProgramAccounts',
          params: [programId, { encoding: 'base64', commitment: COMMITMENT, filters }],
        },
        options(signal),
      )
      return result.map((item) => readAccount('getProgramAccounts', item.pubkey, item.account))
    },
    async getSignaturesForAddress({ address, limit, before }, signal) {
      const result = await client.request<Record<string, unknown>[]>(
        {
          method: 'getSignaturesForAddress',
          params: [address, { limit, commitment: COMMITMENT, ...(before ? { before } : {}) }],
        },
        options(signal),
      )
      return result.map((item) => ({
        signature: String(item.signature),
        slot: Number(item.slot),
        blockTime: typeof item.blockTime === 'number' ? item.blockTime : null,
        err: item.err ?? null,
        confirmationStatus:
          (item.confirmationStatus as SignatureInfo['confirmationStatus'] | undefined) ?? null,
      }))
    },
    async getTransactions(signatures, signal) {
      return many(
        signatures.map((signature) => ({
          method: 'getTransaction',
          params: [signature, GET_TRANSACTION_CONFIG],
        })),
        signal,
      )
    },
    async getNativeSupply(signal) {
      const result = await client.request<{ value: { total: unknown } }>(
        {
          method: 'getSupply',
          params: [{ commitment: COMMITMENT, excludeNonCirculatingAccountsList: true }],
        },
        options(signal),
      )
      return shaped('getSupply', () => toBigInt(result.value.total))
    },
    async getSlot(signal) {
      const slot = await client.request<unknown>(
        { method: 'getSlot', params: [{ commitment: COMMITMENT }] },
        options(signal),
      )
      return shaped('getSlot', () => Number(toBigInt(slot)))
    },
    close() {
      client.close()
    },
  }
}

/**
 * Reads a value out of a node's answer; an answer of another shape (`null`, a string where a
 * number belongs) is the node's failure, like a transport error: callers answer 503, not 500.
 */
function shaped<T>(method: string, read: () => T): T {
  try {
    return read()
  } catch (error) {
    if (!(error instanceof TypeError)) throw error
    throw new RpcTransportError({ method, host: 'node', reason: 'malformed answer', cause: error })
  }
}

/** One account of a base64-encoded answer. */
function readAccount(method: string, address: string, value: unknown): SvmAccount {
  const account = value as { owner?: unknown; lamports?: unknown; data?: unknown }
  const data = Array.isArray(account.data) ? account.data[0] : undefined
  if (typeof account.owner !== 'string' || typeof data !== 'string') {
    throw new RpcTransportError({ method, host: 'node', reason: 'malformed account in answer' })
  }
  return {
    address,
    owner: account.owner,
    lamports: shaped(method, () => toBigInt(account.lamports)),
    data: new Uint8Array(Buffer.from(data, 'base64')),
  }
}

function refusedBatch(error: RpcUnavailableError): boolean {
  const cause = error.cause
  return (
    cause instanceof RpcTransportError && /a batch was answered with one error/.test(cause.message)
  )
}
