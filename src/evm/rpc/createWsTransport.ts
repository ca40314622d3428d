import WebSocket from 'ws'
import { RpcHttpError, RpcTransportError } from './errors.ts'
import { getUrlHost } from './getUrlHost.ts'
import type { JsonRpcRequest, Transport } from './types.ts'

type Waiter = { resolve(value: unknown): void; reject(error: unknown): void }

/**
 * JSON-RPC over one lazily opened WebSocket, used only for chains configured with ws urls alone.
 * Batches are sent as separate messages over the same socket: answers are matched by id anyway.
 */
export function createWsTransport({ url }: { url: string }): Transport {
  const host = getUrlHost(url)
  const waiters = new Map<number, Waiter>()
  let opening: Promise<WebSocket> | undefined

  function failAll(error: unknown) {
    for (const waiter of waiters.values()) waiter.reject(error)
    waiters.clear()
  }

  function connect(method: string): Promise<WebSocket> {
    if (opening) return opening
    const attempt = new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(url)
      socket.on('open', () => resolve(socket))
      socket.on('unexpected-response', (_request, response) => {
        reject(new RpcHttpError({ method, host, status: response.statusCode ?? 0 }))
        socket.terminate()
      })
      socket.on('error', (error) => {
        reject(new RpcTransportError({ method, host, reason: 'connection failed', cause: error }))
      })
      socket.on('close', () => {
        if (opening === attempt) opening = undefined
        reject(new RpcTransportError({ method, host, reason: 'connection closed' }))
        failAll(new RpcTransportError({ method, host, reason: 'connection closed' }))
      })
      socket.on('message', (data) => {
        let parsed: unknown
        try {
          parsed = JSON.parse(data.toString())
        } catch {
          return // an unreadable message cannot be matched; its request times out and is retried
        }
        for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
          const id = (item as { id?: unknown } | null)?.id
          if (typeof id !== 'number') continue
          const waiter = waiters.get(id)
          waiters.delete(id)
          waiter?.resolve(item)
        }
      })
    })
    opening = attempt
    attempt.catch(() => {
      if (opening === attempt) opening = undefined
    })
    return attempt
  }

  async function sendOne(request: JsonRpcRequest, method: string, signal: AbortSignal) {
    const socket = await abortable(connect(method), signal)
    return abortable(
      new Promise((resolve, reject) => {
        waiters.set(request.id, { resolve, reject })
        socket.send(JSON.stringify(request), (error) => {
          if (!error) return
          waiters.delete(request.id)
          reject(new RpcTransportError({ method, host, reason: 'send failed', cause: error }))
        })
      }),
      signal,
      () => waiters.delete(request.id),
    )
  }

  return {
    host,
    send(payload, { method, signal }) {
      if (Array.isArray(payload)) {
        return Promise.all(
          (payload as readonly JsonRpcRequest[]).map((r) => sendOne(r, method, signal)),
        )
      }
      return sendOne(payload as JsonRpcRequest, method, signal)
    },
    close() {
      const current = opening
      opening = undefined
      current?.then((socket) => socket.close()).catch(() => {})
    },
  }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal, onAbort?: () => void): Promise<T> {
  if (signal.aborted) {
    onAbort?.()
    return Promise.reject(signal.reason)
  }
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      onAbort?.()
      reject(signal.reason)
    }
    signal.addEventListener('abort', abort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', abort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort)
        reject(error)
      },
    )
  })
}
