import { NonRetryableError, RetryableError } from '../../internal/errors.ts'
import { RpcHttpError, RpcResponseError } from './errors.ts'

// Nodes and providers disagree on codes for transient trouble, so -32000 and friends are judged
// by their message. A call that the EVM stopped (a revert, out of gas, an invalid opcode) fails
// the same way every time: checked first, since some nodes report it as -32603 or -32000
// (anvil: -32603 "EVM error OutOfGas", seen here; geth: -32000 "out of gas", not checked here).
const revertPattern = /revert|out of gas|EVM error/i
const transientPattern =
  /header not found|rate limit|too many requests|timeout|timed out|limit exceeded|exceeds? the limit|capacity|try again|temporar|unavailable|busy|overload|429|503|unknown block|block not found|could not find block/i
const unsupportedPattern =
  /(method|namespace|api)\b.*\b(not found|does not exist|not available|not enabled)|not supported|unsupported|is not whitelisted/i

/** Codes that mean "ask again later" whatever the message says. */
const retryableCodes = new Set([
  -32005, // limit exceeded
  -32603, // internal error
  -32002, // resource unavailable
  429, // some providers put the HTTP status in the JSON-RPC code
])
const nonRetryableCodes = new Set([
  3, // execution reverted (with data)
  -32600, // invalid request
  -32601, // method not found
  -32602, // invalid params
  -32003, // transaction rejected
  -32004, // method not supported
])

/**
 * The one retry decision for the RPC boundary: network errors, timeouts, HTTP 408/425/429/5xx
 * and transient JSON-RPC errors are retried; reverts, invalid requests, unknown methods and
 * other HTTP 4xx are not.
 */
export function shouldRetry(error: unknown): boolean {
  if (error instanceof RpcResponseError) {
    const message = error.rpcMessage
    if (nonRetryableCodes.has(error.rpcCode)) return false
    if (revertPattern.test(message)) return false
    if (isMethodUnsupported(error)) return false
    if (retryableCodes.has(error.rpcCode)) return true
    return transientPattern.test(message)
  }
  if (error instanceof RpcHttpError) {
    const { status } = error
    return status === 408 || status === 425 || status === 429 || status >= 500
  }
  if (error instanceof RetryableError) return true
  if (error instanceof NonRetryableError) return false
  // fetch reports network failures as a TypeError ("fetch failed") with the socket error as cause
  if (error instanceof TypeError) return true
  return false
}

/**
 * Whether the node does not offer the method (so the caller falls back, e.g. from
 * `eth_getBlockReceipts` to per-transaction receipts).
 */
export function isMethodUnsupported(error: unknown): boolean {
  if (!(error instanceof RpcResponseError)) return false
  if (error.rpcCode === -32601 || error.rpcCode === -32004) return true
  if (revertPattern.test(error.rpcMessage)) return false
  return unsupportedPattern.test(error.rpcMessage)
}
