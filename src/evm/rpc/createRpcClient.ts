import { setMaxListeners } from 'node:events'
import { BaseError, ConfigError, NonRetryableError } from '../../internal/errors.ts'
import { redactUrl } from '../../utils/redactUrl.ts'
import { sleep } from '../../utils/sleep.ts'
import { createHttpTransport } from './createHttpTransport.ts'
import { createLimiter } from './createLimiter.ts'
import { createWsTransport } from './createWsTransport.ts'
import {
  RpcHttpError,
  RpcResponseError,
  RpcTimeoutError,
  RpcTransportError,
  RpcUnavailableError,
  RpcWrongChainError,
} from './errors.ts'
import { readJsonRpcResponse } from './readJsonRpcResponse.ts'
import { shouldRetry } from './shouldRetry.ts'
import type { JsonRpcErrorObject, JsonRpcRequest, Transport } from './types.ts'

export type RpcCall = { method: string; params?: readonly unknown[] }

/**
 * `background`: read-ahead work nobody waits for yet (the indexer's next windows); it waits
 * for a free slot behind every other call, so that a remote node's round trips on the path of
 * the batch being prepared are not queued behind it.
 */
export type RpcCallOptions = { signal?: AbortSignal; background?: boolean }

export type RpcItemResult<T = unknown> =
  | { ok: true; result: T }
  | { ok: false; error: RpcResponseError }

export type RpcClient = {
  /**
   * One call. Resolves with the result or throws: `RpcResponseError` for a JSON-RPC error that
   * is not worth retrying, `RpcUnavailableError` once every endpoint and attempt failed, the
   * signal's reason when the caller aborts.
   */
  request<T = unknown>(call: RpcCall, options?: RpcCallOptions): Promise<T>
  /**
   * Many calls, sent as JSON-RPC batches of at most `batchSize`, results in input order. A
   * non-retryable JSON-RPC error of one item (e.g. a revert) is that item's `{ ok: false }`;
   * everything else is retried. Either every item has an answer or the whole call throws.
   */
  batch<T = unknown>(
    calls: readonly RpcCall[],
    options?: RpcCallOptions,
  ): Promise<RpcItemResult<T>[]>
  /**
   * With `chainId`: asks every endpoint not yet checked for its chain id (one attempt each) and
   * returns those that answered another chain (never used). Endpoints that did not answer are
   * checked before their first use.
   */
  checkChainIds?(signal?: AbortSignal): Promise<{ url: string; chainId: number }[]>
  /** Stops in-flight work (it rejects) and closes WebSockets. */
  close(): void
}

/** Structured logger; a pino logger fits. */
export type RpcLogger = {
  debug(fields: Record<string, unknown>, message: string): void
  warn(fields: Record<string, unknown>, message: string): void
}

export type CreateRpcClientOptions = {
  /**
   * Endpoints in order of preference. http(s) urls are used when there are any; ws(s) urls only
   * when a chain has nothing else.
   */
  urls: readonly string[]
  /** Most calls in one JSON-RPC batch. Default 50. */
  batchSize?: number
  /** Most HTTP requests (or batches) in flight at once, across all endpoints. Default 8. */
  concurrency?: number
  /** Per attempt. Default 15 000. */
  timeoutMs?: number
  /** Retries after the first attempt, across endpoints. Default 6. */
  retryCount?: number
  /** First backoff; doubles per retry, with jitter. Default 150. */
  retryDelayMs?: number
  /** Cap on one backoff and on a `Retry-After`. Default 5 000. */
  maxRetryDelayMs?: number
  logger?: RpcLogger
  /**
   * Reads HTTP answers. Default `JSON.parse`; Solana passes a lossless parser (u64 values
   * above 2^53 stay exact). WebSocket answers always use `JSON.parse`.
   */
  parseJson?: (text: string) => unknown
  /**
   * EVM: the chain every endpoint must serve. Each endpoint is asked `eth_chainId` before its
   * first use; one that answers another chain is never used (a mistyped backup URL would
   * otherwise be failed over to when the first node goes down, and its blocks taken for a
   * reorg of this chain).
   */
  chainId?: number
}

type Endpoint = {
  url: string
  transport: Transport
  failures: number
  cooldownUntil: number
  /** `chainId` checked: true, or the other chain the endpoint answered (never used). */
  chain?: true | number
}

export function createRpcClient({
  urls,
  batchSize = 50,
  concurrency = 8,
  timeoutMs = 15_000,
  retryCount = 6,
  retryDelayMs = 150,
  maxRetryDelayMs = 5_000,
  logger,
  parseJson,
  chainId,
}: CreateRpcClientOptions): RpcClient {
  const httpUrls = urls.filter((url) => /^https?:\/\//i.test(url))
  const wsUrls = urls.filter((url) => /^wss?:\/\//i.test(url))
  if (httpUrls.length + wsUrls.length !== urls.length || urls.length === 0) {
    throw new ConfigError('RPC urls must be one or more http(s):// or ws(s):// urls')
  }
  const endpoints: Endpoint[] = (httpUrls.length > 0 ? httpUrls : wsUrls).map((url) => ({
    url,
    transport:
      httpUrls.length > 0
        ? createHttpTransport({ url, ...(parseJson ? { parseJson } : {}) })
        : createWsTransport({ url }),
    failures: 0,
    cooldownUntil: 0,
  }))
  const hosts = endpoints.map((endpoint) => endpoint.transport.host)
  const limiter = createLimiter(concurrency)
  const closed = new AbortController()
  let nextId = 1

  const backoff = (attempt: number) =>
    Math.min(maxRetryDelayMs, retryDelayMs * 2 ** attempt) * (0.5 + Math.random() / 2)

  /** Healthy endpoints first (fewest recent failures, then configured order). */
  function pickEndpoint(excluded: ReadonlySet<Endpoint>): Endpoint | undefined {
    const now = Date.now()
    let best: Endpoint | undefined
    for (const endpoint of endpoints) {
      if (excluded.has(endpoint) || typeof endpoint.chain === 'number') continue
      if (!best) best = endpoint
      const bestReady = best.cooldownUntil <= now
      const ready = endpoint.cooldownUntil <= now
      if (ready && !bestReady) best = endpoint
      else if (ready && bestReady && endpoint.failures < best.failures) best = endpoint
      else if (!ready && !bestReady && endpoint.cooldownUntil < best.cooldownUntil) best = endpoint
    }
    return best
  }

  function markFailure(endpoint: Endpoint, error: unknown) {
    endpoint.failures++
    const retryAfterMs = error instanceof RpcHttpError ? error.retryAfterMs : undefined
    const cooldown = Math.min(maxRetryDelayMs, retryAfterMs ?? backoff(endpoint.failures - 1))
    endpoint.cooldownUntil = Math.max(endpoint.cooldownUntil, Date.now() + cooldown)
  }

  setMaxListeners(0, closed.signal)

  /**
   * One signal per call that aborts with the caller's reason or when the client closes; every
   * attempt of the call listens to it, so the caller's own signal gets a single listener.
   */
  function linkSignal(signal: AbortSignal | undefined) {
    const controller = new AbortController()
    setMaxListeners(0, controller.signal)
    const onCaller = () => controller.abort(signal?.reason)
    const onClosed = () => controller.abort(new NonRetryableError('RPC client is closed'))
    if (signal?.aborted) onCaller()
    else if (closed.signal.aborted) onClosed()
    signal?.addEventListener('abort', onCaller, { once: true })
    closed.signal.addEventListener('abort', onClosed, { once: true })
    return {
      controller,
      dispose() {
        signal?.removeEventListener('abort', onCaller)
        closed.signal.removeEventListener('abort', onClosed)
      },
    }
  }

  /** Stops promptly with the reason of the call's signal once it aborts. */
  function throwIfStopped(signal: AbortSignal) {
    if (signal.aborted) throw signal.reason
  }

  /** One attempt on one endpoint, within the concurrency limit and the timeout. */
  async function send(
    endpoint: Endpoint,
    payload: JsonRpcRequest | readonly JsonRpcRequest[],
    method: string,
    signal: AbortSignal,
    background = false,
  ): Promise<unknown> {
    const release = await limiter.acquire(signal, background)
    const stop = new AbortController()
    // A WebSocket batch listens once per item. Infinity, not 0 (also unlimited): fetch reads
    // the limit with `getMaxListeners`, which throws for 0 (falsy) and undici catches it, so
    // every request built an error and formatted the signal into its message (~0.1 ms each).
    setMaxListeners(Number.POSITIVE_INFINITY, stop.signal)
    const onAbort = () => stop.abort()
    signal.addEventListener('abort', onAbort, { once: true })
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      stop.abort()
    }, timeoutMs)
    try {
      return await endpoint.transport.send(payload, { method, signal: stop.signal })
    } catch (error) {
      throwIfStopped(signal)
      if (timedOut) throw new RpcTimeoutError({ method, host: endpoint.transport.host, timeoutMs })
      throw error
    } finally {
      clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
      release()
    }
  }

  /**
   * Runs `attempt` until it succeeds, moving to the healthiest endpoint after each failure. An
   * endpoint that refuses with a non-retryable HTTP status (401, 403, 404: a bad key or path)
   * is skipped for the rest of this call; other non-retryable errors end the call.
   */
  async function withRetries<T>(
    method: string,
    signal: AbortSignal,
    attempt: (endpoint: Endpoint) => Promise<T>,
  ): Promise<T> {
    const excluded = new Set<Endpoint>()
    let previous: Endpoint | undefined
    let lastError: unknown
    let attempts = 0
    while (attempts <= retryCount) {
      throwIfStopped(signal)
      const endpoint = pickEndpoint(excluded)
      if (!endpoint) break
      if (attempts > 0) {
        const cooldown = endpoint.cooldownUntil - Date.now()
        const wait = Math.min(
          maxRetryDelayMs,
          Math.max(cooldown, endpoint === previous ? backoff(attempts - 1) : 0),
        )
        if (wait > 0) await sleep(wait, signal)
      }
      attempts++
      previous = endpoint
      try {
        if (!(await onChain(endpoint, signal))) continue
        const result = await attempt(endpoint)
        endpoint.failures = 0
        endpoint.cooldownUntil = 0
        return result
      } catch (error) {
        throwIfStopped(signal)
        lastError = error
        const host = endpoint.transport.host
        const reason = error instanceof BaseError ? error.shortMessage : String(error)
        if (!shouldRetry(error)) {
          if (!(error instanceof RpcHttpError)) throw error
          excluded.add(endpoint)
          markFailure(endpoint, error)
          logger?.warn({ method, host, error: reason }, 'RPC endpoint refused the request')
          continue
        }
        markFailure(endpoint, error)
        logger?.debug({ method, host, attempt: attempts, error: reason }, 'RPC attempt failed')
      }
    }
    const wrong = endpoints.find((e) => typeof e.chain === 'number')
    if (wrong && endpoints.every((e) => typeof e.chain === 'number' || excluded.has(e))) {
      throw new RpcWrongChainError({
        url: wrong.url,
        expected: chainId!,
        actual: wrong.chain as number,
      })
    }
    throw new RpcUnavailableError({ method, hosts, attempts, cause: lastError })
  }

  /**
   * Whether `endpoint` serves `chainId` (asked once; a failure to answer throws, as an attempt
   * of the call). One that answers another chain is logged and never used again.
   */
  async function onChain(endpoint: Endpoint, signal: AbortSignal): Promise<boolean> {
    if (chainId === undefined || endpoint.chain === true) return true
    if (typeof endpoint.chain === 'number') return false
    const request = toRequest({ method: 'eth_chainId' })
    const answer = await send(endpoint, request, 'eth_chainId', signal)
    const response = readJsonRpcResponse(Array.isArray(answer) ? answer[0] : answer)
    const host = endpoint.transport.host
    if (!response || response.id !== request.id) {
      throw new RpcTransportError({ method: 'eth_chainId', host, reason: 'malformed answer' })
    }
    if ('error' in response) throw toError('eth_chainId', endpoint, response.error)
    const actual = Number(BigInt(response.result as string))
    if (actual === chainId) {
      endpoint.chain = true
      return true
    }
    endpoint.chain = actual
    logger?.warn(
      { host, expected_chain_id: chainId, node_chain_id: actual },
      `RPC endpoint ${redactUrl(endpoint.url)} serves chain ${actual}, not ${chainId}: it is never used`,
    )
    return false
  }

  function toRequest(call: RpcCall): JsonRpcRequest {
    return { jsonrpc: '2.0', id: nextId++, method: call.method, params: call.params ?? [] }
  }

  function toError(method: string, endpoint: Endpoint, error: JsonRpcErrorObject) {
    return new RpcResponseError({ method, host: endpoint.transport.host, ...error })
  }

  return {
    async request<T>(call: RpcCall, options: RpcCallOptions = {}): Promise<T> {
      const { method } = call
      const { controller, dispose } = linkSignal(options.signal)
      const signal = controller.signal
      try {
        return await withRetries(method, signal, async (endpoint) => {
          const request = toRequest(call)
          const answer = await send(endpoint, request, method, signal, options.background)
          const response = readJsonRpcResponse(Array.isArray(answer) ? answer[0] : answer)
          const host = endpoint.transport.host
          // id null: the node could not tie its error to the request, but it is about this one
          const idMatches =
            response?.id === request.id || (response?.id === null && 'error' in response)
          if (!response || !idMatches) {
            throw new RpcTransportError({ method, host, reason: 'malformed answer' })
          }
          if ('error' in response) throw toError(method, endpoint, response.error)
          return response.result as T
        })
      } finally {
        dispose()
      }
    },

    async batch<T>(
      calls: readonly RpcCall[],
      options: RpcCallOptions = {},
    ): Promise<RpcItemResult<T>[]> {
      const results: Array<RpcItemResult<T> | undefined> = new Array(calls.length)
      // One failing chunk also stops the others: the whole batch throws anyway.
      const { controller: stop, dispose } = linkSignal(options.signal)

      const runChunk = async (indices: number[]) => {
        let pending = indices
        const methods = [...new Set(indices.map((index) => calls[index]!.method))]
        const method = `batch of ${indices.length} (${methods.slice(0, 3).join(', ')}${methods.length > 3 ? ', …' : ''})`
        await withRetries(method, stop.signal, async (endpoint) => {
          const host = endpoint.transport.host
          const byId = new Map<number | string | null, number>()
          const payload = pending.map((index) => {
            const request = toRequest(calls[index]!)
            byId.set(request.id, index)
            return request
          })
          const answer = await send(endpoint, payload, method, stop.signal, options.background)
          if (!Array.isArray(answer)) {
            const single = readJsonRpcResponse(answer)
            if (single && 'error' in single) {
              const error = toError(method, endpoint, single.error)
              if (shouldRetry(error)) throw error
              // e.g. "batch too large" or "batches not supported": nothing to hand to one item
              throw new RpcTransportError({
                method,
                host,
                reason: `a batch was answered with one error (${single.error.code} ${single.error.message})`,
              })
            }
            throw new RpcTransportError({ method, host, reason: 'malformed batch answer' })
          }
          let retryable: unknown
          for (const item of answer) {
            const response = readJsonRpcResponse(item)
            if (!response) continue
            const index = byId.get(response.id)
            if (index === undefined) continue // unknown or repeated id
            const call = calls[index]!
            if ('error' in response) {
              const error = toError(call.method, endpoint, response.error)
              if (shouldRetry(error)) {
                retryable = error
                continue
              }
              results[index] = { ok: false, error }
            } else {
              results[index] = { ok: true, result: response.result as T }
            }
            byId.delete(response.id)
          }
          pending = [...byId.values()]
          if (pending.length === 0) return
          throw (
            retryable ??
            new RpcTransportError({
              method,
              host,
              reason: `${pending.length} of ${payload.length} answers missing`,
            })
          )
        })
      }

      const chunks: number[][] = []
      for (let start = 0; start < calls.length; start += batchSize) {
        const end = Math.min(start + batchSize, calls.length)
        chunks.push(Array.from({ length: end - start }, (_, i) => start + i))
      }
      try {
        await Promise.all(
          chunks.map((chunk) =>
            runChunk(chunk).catch((error: unknown) => {
              stop.abort(error)
              throw error
            }),
          ),
        )
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason
        throw error
      } finally {
        dispose()
      }
      return results as RpcItemResult<T>[]
    },

    async checkChainIds(signal) {
      if (chainId === undefined) return []
      const { controller, dispose } = linkSignal(signal)
      try {
        await Promise.all(
          endpoints.map((endpoint) => onChain(endpoint, controller.signal).catch(() => undefined)),
        )
      } finally {
        dispose()
      }
      if (signal?.aborted) throw signal.reason
      return endpoints.flatMap((e) =>
        typeof e.chain === 'number' ? [{ url: e.url, chainId: e.chain }] : [],
      )
    },

    close() {
      closed.abort()
      for (const endpoint of endpoints) endpoint.transport.close()
    },
  }
}
