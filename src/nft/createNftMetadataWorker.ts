import type { RpcClient } from '../evm/rpc/createRpcClient.ts'
import { BaseError, NonRetryableError } from '../internal/errors.ts'
import type { Logger } from '../internal/logger.ts'
import type { SafeFetchOptions } from '../net/safeFetch.ts'
import type { Store } from '../store/createStore.ts'
import { parseDbError, StoreUnavailableError } from '../store/parseDbError.ts'
import type { NftStandard } from '../store/schema.ts'
import { fromU256 } from '../store/u256.ts'
import { sleep } from '../utils/sleep.ts'
import { type LoadedMetadata, loadMetadata } from './loadMetadata.ts'
import { readTokenUris } from './readTokenUris.ts'
import { DEFAULT_IPFS_GATEWAY, displayUrl, substituteTokenId } from './resolveTokenUri.ts'

export type NftMetadataWorkerOptions = {
  store: Store
  /** The chain's RPC client; throwing means the chain is not served here. */
  rpcFor: (chainId: number) => RpcClient
  logger: Logger
  /** Gateway for ipfs:// URIs, ending in /ipfs/. Default https://ipfs.io/ipfs/. */
  ipfsGateway?: string
  /** Fetch from private, loopback, link-local, unique-local and CGNAT addresses. Default false. */
  allowPrivate?: boolean
  /** Largest metadata document (and URI). Default 256 KiB. */
  maxBytes?: number
  /** Per fetch, redirects included. Default 10 000. */
  timeoutMs?: number
  /** Host resolution for fetches; default `dns.lookup` (see `safeFetch`). */
  lookup?: SafeFetchOptions['lookup']
  /** Documents loaded at once. Default 8. */
  concurrency?: number
  /** Tokens per round (enqueue scan and due rows). Default 200. */
  batchSize?: number
  /** Pause when there is nothing to do. Default 5 000. */
  pollIntervalMs?: number
  /** First retry delay; doubles per failed attempt. Default 60 s. */
  retryBaseMs?: number
  /** Attempts before a token's metadata is given up (status `error`). Default 5. */
  maxAttempts?: number
  /** Clock, unix milliseconds. */
  now?: () => number
}

export type NftMetadataWorker = {
  /** Works until the signal aborts; never throws on bad metadata or a failing store/node. */
  run(signal: AbortSignal): Promise<void>
  /**
   * One round: queues up to `batchSize` holdings without a metadata row (walking the holdings
   * in key order, across calls), then loads up to `batchSize` due rows.
   */
  tick(signal?: AbortSignal): Promise<{ enqueued: number; processed: number; scanDone: boolean }>
}

type Key = { chain_id: number; contract: string; token_id: string }

/** Text as a row may hold it: PostgreSQL text refuses NUL, which a token URI may contain. */
const storable = (text: string) => text.replaceAll('\u0000', '')

/**
 * The NFT metadata worker. Rows of `nft_metadata` are its queue: `pending` (to load, perhaps
 * after failed attempts: `attempts`, `error`, `next_attempt_at`), `ok` (loaded) and `error`
 * (given up after `maxAttempts`, or at once when a retry cannot help: a malformed document, a
 * refused address). Contract calls are at the latest block.
 */
export function createNftMetadataWorker({
  store,
  rpcFor,
  logger,
  ipfsGateway = DEFAULT_IPFS_GATEWAY,
  allowPrivate = false,
  maxBytes = 256 * 1024,
  timeoutMs = 10_000,
  lookup,
  concurrency = 8,
  batchSize = 200,
  pollIntervalMs = 5_000,
  retryBaseMs = 60_000,
  maxAttempts = 5,
  now = Date.now,
}: NftMetadataWorkerOptions): NftMetadataWorker {
  const db = store.db
  let scanFrom: Key | undefined
  const seconds = () => Math.floor(now() / 1000)

  async function enqueue(): Promise<{ enqueued: number; scanDone: boolean }> {
    let query = db
      .selectFrom('nft_holdings')
      .select(['chain_id', 'contract', 'token_id'])
      .distinct()
      .orderBy('chain_id')
      .orderBy('contract')
      .orderBy('token_id')
      .limit(batchSize)
    const from = scanFrom
    if (from) {
      query = query.where((eb) =>
        eb(
          eb.refTuple('chain_id', 'contract', 'token_id'),
          '>',
          eb.tuple(from.chain_id, from.contract, from.token_id),
        ),
      )
    }
    const keys = await query.execute()
    const scanDone = keys.length < batchSize
    scanFrom = scanDone ? undefined : keys.at(-1)
    if (keys.length === 0) return { enqueued: 0, scanDone }
    const at = seconds()
    const result = await db
      .insertInto('nft_metadata')
      .values(
        keys.map((k) => ({
          ...k,
          uri: null,
          name: null,
          description: null,
          image_url: null,
          attributes: null,
          status: 'pending' as const,
          error: null,
          attempts: 0,
          next_attempt_at: at,
          fetched_at: null,
        })),
      )
      .onConflict((oc) => oc.columns(['chain_id', 'contract', 'token_id']).doNothing())
      .executeTakeFirst()
    return { enqueued: Number(result.numInsertedOrUpdatedRows ?? 0n), scanDone }
  }

  async function standardOf(key: Key): Promise<NftStandard> {
    const holding = await db
      .selectFrom('nft_holdings')
      .select('standard')
      .where('chain_id', '=', key.chain_id)
      .where('contract', '=', key.contract)
      .where('token_id', '=', key.token_id)
      .limit(1)
      .executeTakeFirst()
    if (holding) return holding.standard
    const token = await db
      .selectFrom('tokens')
      .select('standard')
      .where('chain_id', '=', key.chain_id)
      .where('address', '=', key.contract)
      .executeTakeFirst()
    return token?.standard === 'erc1155' ? 'erc1155' : 'erc721'
  }

  /**
   * `save`, and if the row cannot take what was loaded, the row given up with a fixed
   * message: a token whose row cannot be written would head the due rows forever and hold
   * back every other. Throws when the store is unavailable (the token is tried again), or
   * when the fallback fails too.
   */
  async function saveOrGiveUp(
    key: Key & { attempts: number },
    outcome: Parameters<typeof save>[1],
  ): Promise<void> {
    try {
      await save(key, outcome)
    } catch (error) {
      if (parseDbError(error, 'save NFT metadata') instanceof StoreUnavailableError) throw error
      logger.warn(
        { chain_id: key.chain_id, contract: key.contract, err: error },
        'Could not store an NFT metadata outcome; giving the token up',
      )
      await db
        .updateTable('nft_metadata')
        .set({
          status: 'error',
          error: 'Its metadata could not be stored.',
          attempts: key.attempts + 1,
          next_attempt_at: seconds(),
          fetched_at: seconds(),
        })
        .where('chain_id', '=', key.chain_id)
        .where('contract', '=', key.contract)
        .where('token_id', '=', key.token_id)
        .execute()
    }
  }

  async function save(
    key: Key & { attempts: number },
    outcome: { ok: true; loaded: LoadedMetadata } | { ok: false; uri?: string; error: unknown },
  ): Promise<void> {
    const at = seconds()
    const where = db
      .updateTable('nft_metadata')
      .where('chain_id', '=', key.chain_id)
      .where('contract', '=', key.contract)
      .where('token_id', '=', key.token_id)
    const attempts = key.attempts + 1
    if (outcome.ok) {
      const { uri, metadata } = outcome.loaded
      const image = metadata.image ? displayUrl({ url: metadata.image, ipfsGateway }) : undefined
      await where
        .set({
          uri: storable(uri),
          name: metadata.name ?? null,
          description: metadata.description ?? null,
          image_url: image ?? null,
          attributes: metadata.attributes ? JSON.stringify(metadata.attributes) : null,
          status: 'ok',
          error: null,
          attempts,
          next_attempt_at: at,
          fetched_at: at,
        })
        .execute()
      return
    }
    const message =
      outcome.error instanceof BaseError ? outcome.error.shortMessage : 'Unexpected failure.'
    const giveUp = outcome.error instanceof NonRetryableError || attempts >= maxAttempts
    const delay = (retryBaseMs * 2 ** (attempts - 1)) / 1000
    await where
      .set({
        uri: outcome.uri === undefined ? null : storable(outcome.uri),
        status: giveUp ? 'error' : 'pending',
        error: storable(message).slice(0, 500),
        attempts,
        next_attempt_at: giveUp ? at : at + Math.ceil(delay),
        fetched_at: at,
      })
      .execute()
  }

  async function processDue(signal: AbortSignal | undefined): Promise<number> {
    const due = await db
      .selectFrom('nft_metadata')
      .select(['chain_id', 'contract', 'token_id', 'attempts'])
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', seconds())
      .orderBy('next_attempt_at')
      .limit(batchSize)
      .execute()
    const byChain = new Map<number, typeof due>()
    for (const row of due) byChain.set(row.chain_id, [...(byChain.get(row.chain_id) ?? []), row])

    for (const [chainId, rows] of byChain) {
      const items = await Promise.all(
        rows.map(async (row) => ({
          row,
          standard: await standardOf(row),
          tokenId: fromU256(row.token_id),
        })),
      )
      let uris: Awaited<ReturnType<typeof readTokenUris>>
      try {
        uris = await readTokenUris({
          rpc: rpcFor(chainId),
          tokens: items.map((i) => ({
            contract: i.row.contract,
            standard: i.standard,
            tokenId: i.tokenId,
          })),
          maxLength: maxBytes * 2,
          ...(signal ? { signal } : {}),
        })
      } catch (error) {
        if (signal?.aborted) throw signal.reason
        // The node is down or the chain is not served: every item waits for its next try.
        const reason = error instanceof BaseError ? error : new BaseError('RPC failure.')
        const retryable = new BaseError(`Could not read the token URI: ${reason.shortMessage}`)
        logger.warn({ chain_id: chainId, error: reason.shortMessage }, 'NFT token URIs unreadable')
        for (const { row } of items) await saveOrGiveUp(row, { ok: false, error: retryable })
        continue
      }
      let next = 0
      const runOne = async () => {
        while (next < items.length) {
          const index = next++
          const item = items[index]
          const read = uris[index]
          if (!item || !read) continue
          if (!read.ok) {
            await saveOrGiveUp(item.row, { ok: false, error: new BaseError(read.error) })
            continue
          }
          try {
            const loaded = await loadMetadata({
              rawUri: read.uri,
              standard: item.standard,
              tokenId: item.tokenId,
              ipfsGateway,
              allowPrivate,
              maxBytes,
              timeoutMs,
              ...(lookup ? { lookup } : {}),
              ...(signal ? { signal } : {}),
            })
            await saveOrGiveUp(item.row, { ok: true, loaded })
          } catch (error) {
            if (signal?.aborted) throw signal.reason
            // The URI as fetched (ERC1155's `{id}` filled in), as a success would keep it.
            const uri =
              read.uri.length <= maxBytes * 2
                ? substituteTokenId({
                    uri: read.uri,
                    standard: item.standard,
                    tokenId: item.tokenId,
                  })
                : undefined
            await saveOrGiveUp(item.row, { ok: false, error, ...(uri ? { uri } : {}) })
          }
        }
      }
      await Promise.all(Array.from({ length: Math.max(1, concurrency) }, runOne))
    }
    return due.length
  }

  async function tick(signal?: AbortSignal) {
    const { enqueued, scanDone } = await enqueue()
    const processed = await processDue(signal)
    return { enqueued, processed, scanDone }
  }

  return {
    tick,
    async run(signal) {
      while (!signal.aborted) {
        try {
          const { enqueued, processed, scanDone } = await tick(signal)
          if (processed === 0 && enqueued === 0 && scanDone) await sleep(pollIntervalMs, signal)
        } catch (error) {
          if (signal.aborted) return
          logger.error(
            { error: error instanceof BaseError ? error.shortMessage : String(error) },
            'NFT metadata round failed',
          )
          await sleep(pollIntervalMs, signal).catch(() => {})
        }
      }
    },
  }
}
