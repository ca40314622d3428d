import { BaseError, NonRetryableError, RetryableError } from '../../internal/errors.ts'
import { redactUrl } from '../../utils/redactUrl.ts'

/**
 * RPC errors name the method and the endpoint by host only: RPC URLs often carry API keys in
 * their path, query or credentials. Whether one of these is retried is `shouldRetry`'s call.
 */

/** The node answered with a JSON-RPC error object. */
export class RpcResponseError extends BaseError {
  override name = 'RpcResponseError'
  /**
   * The JSON-RPC error code (3 or -32000 for a revert, -32601 for an unknown method). Not named
   * `code`: `BaseError.code` is a string slot for Scry's own stable codes.
   */
  readonly rpcCode: number
  /** The node's own message, without method and host. */
  readonly rpcMessage: string
  readonly data: unknown
  readonly method: string
  readonly host: string

  constructor({
    method,
    host,
    code,
    message,
    data,
  }: { method: string; host: string; code: number; message: string; data?: unknown }) {
    super(`RPC ${method} on ${host} failed with code ${code}: ${message}`)
    this.rpcCode = code
    this.rpcMessage = message
    this.data = data
    this.method = method
    this.host = host
  }
}

/** The endpoint answered with an HTTP status other than 2xx. */
export class RpcHttpError extends BaseError {
  override name = 'RpcHttpError'
  readonly status: number
  /** The `Retry-After` header in milliseconds, when the endpoint sent one. */
  readonly retryAfterMs: number | undefined

  constructor({
    method,
    host,
    status,
    retryAfterMs,
  }: { method: string; host: string; status: number; retryAfterMs?: number | undefined }) {
    super(`RPC ${method} on ${host} failed with HTTP ${status}`)
    this.status = status
    this.retryAfterMs = retryAfterMs
  }
}

/** No answer within the timeout. */
export class RpcTimeoutError extends RetryableError {
  override name = 'RpcTimeoutError'
  constructor({ method, host, timeoutMs }: { method: string; host: string; timeoutMs: number }) {
    super(`RPC ${method} on ${host} timed out after ${timeoutMs} ms`)
  }
}

/** The connection failed or the answer was not a usable JSON-RPC response. */
export class RpcTransportError extends RetryableError {
  override name = 'RpcTransportError'
  constructor({
    method,
    host,
    reason,
    cause,
  }: { method: string; host: string; reason: string; cause?: unknown }) {
    super(`RPC ${method} on ${host} failed: ${reason}`, { cause })
  }
}

/** Every endpoint and every attempt failed; `cause` is the last failure. */
export class RpcUnavailableError extends NonRetryableError {
  override name = 'RpcUnavailableError'
  constructor({
    method,
    hosts,
    attempts,
    cause,
  }: { method: string; hosts: readonly string[]; attempts: number; cause: unknown }) {
    const last = cause instanceof BaseError ? cause.shortMessage : String(cause)
    super(
      `RPC ${method} failed on ${hosts.join(', ')} after ${attempts} attempt${attempts === 1 ? '' : 's'}`,
      {
        details: last,
        cause,
      },
    )
  }
}

/** Every endpoint left answers another chain than the one configured (`chainId`). */
export class RpcWrongChainError extends NonRetryableError {
  override name = 'RpcWrongChainError'
  constructor({ url, expected, actual }: { url: string; expected: number; actual: number }) {
    super(`The node at ${redactUrl(url)} is chain ${actual}, not ${expected}`, {
      details: `Point the chain's RPC URLs at nodes of chain ${expected}.`,
    })
  }
}
