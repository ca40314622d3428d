import WebSocket from 'ws'
import { sleep } from '../../utils/sleep.ts'
import type { Hex } from '../types.ts'
import { RpcHttpError, RpcResponseError, RpcTransportError } from './errors.ts'
import { getUrlHost } from './getUrlHost.ts'
import { readJsonRpcResponse } from './readJsonRpcResponse.ts'
import { isMethodUnsupported } from './shouldRetry.ts'

export type WatchNewHeadsOptions = {
  /** A ws:// or wss:// endpoint. */
  url: string
  /** Called for every head the node announces, in the node's order (reorgs included). */
  onHead: (blockNumber: bigint, hash: Hex) => void
  /** Connection trouble, before each reconnect; also errors thrown by `onHead`. */
  onError?: ((error: unknown) => void) | undefined
  /** Stops watching; the returned promise then resolves. */
  signal: AbortSignal
  /** First reconnect delay; doubles up to `maxRetryDelayMs`, with jitter. Default 500. */
  retryDelayMs?: number
  /** Default 30 000. */
  maxRetryDelayMs?: number
}

/**
 * Follows `eth_subscribe ["newHeads"]`, reconnecting with backoff until the signal aborts.
 * Rejects only when the node does not support subscriptions (`isMethodUnsupported`), so the
 * caller can fall back to polling. Heads missed while disconnected are not replayed: the
 * caller compares numbers and fetches what it lacks.
 */
export async function watchNewHeads({
  url,
  onHead,
  onError,
  signal,
  retryDelayMs = 500,
  maxRetryDelayMs = 30_000,
}: WatchNewHeadsOptions): Promise<void> {
  const host = getUrlHost(url)
  let failures = 0
  while (!signal.aborted) {
    const { subscribed, error } = await subscribeOnce({ url, host, onHead, onError, signal })
    if (signal.aborted) return
    if (isMethodUnsupported(error)) throw error
    onError?.(error)
    failures = subscribed ? 0 : failures + 1
    const delay =
      Math.min(maxRetryDelayMs, retryDelayMs * 2 ** failures) * (0.5 + Math.random() / 2)
    try {
      await sleep(delay, signal)
    } catch {
      return
    }
  }
}

/** One connection: resolves when it ends, saying whether the subscription was ever live. */
function subscribeOnce({
  url,
  host,
  onHead,
  onError,
  signal,
}: Pick<WatchNewHeadsOptions, 'url' | 'onHead' | 'onError' | 'signal'> & {
  host: string
}): Promise<{ subscribed: boolean; error: unknown }> {
  const method = 'eth_subscribe'
  return new Promise((resolve) => {
    let subscription: string | undefined
    let failure: unknown
    const socket = new WebSocket(url)
    const end = (error: unknown) => {
      failure ??= error
      socket.terminate()
    }
    const onAbort = () => socket.terminate()
    signal.addEventListener('abort', onAbort, { once: true })

    socket.on('open', () => {
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: ['newHeads'] }))
    })
    socket.on('unexpected-response', (_request, response) => {
      end(new RpcHttpError({ method, host, status: response.statusCode ?? 0 }))
    })
    socket.on('error', (error) => {
      failure ??= new RpcTransportError({ method, host, reason: 'connection failed', cause: error })
    })
    socket.on('close', () => {
      signal.removeEventListener('abort', onAbort)
      resolve({
        subscribed: subscription !== undefined,
        error: failure ?? new RpcTransportError({ method, host, reason: 'connection closed' }),
      })
    })
    socket.on('message', (data) => {
      let message: unknown
      try {
        message = JSON.parse(data.toString())
      } catch {
        return end(
          new RpcTransportError({ method, host, reason: 'the node sent a non-JSON message' }),
        )
      }
      const response = readJsonRpcResponse(message)
      if (response?.id === 1 && subscription === undefined) {
        if ('error' in response)
          return end(new RpcResponseError({ method, host, ...response.error }))
        if (typeof response.result !== 'string') {
          return end(new RpcTransportError({ method, host, reason: 'malformed subscription id' }))
        }
        subscription = response.result
        return
      }
      const params = (message as { params?: { subscription?: unknown; result?: unknown } })?.params
      if (subscription === undefined || params?.subscription !== subscription) return
      const head = params.result as { number?: unknown; hash?: unknown } | undefined
      if (typeof head?.number !== 'string' || typeof head.hash !== 'string') {
        return end(new RpcTransportError({ method, host, reason: 'malformed head' }))
      }
      try {
        onHead(BigInt(head.number), head.hash.toLowerCase() as Hex)
      } catch (error) {
        onError?.(error)
      }
    })
  })
}
