import { describe, expect, test } from 'vitest'
import { NonRetryableError, RetryableError } from '../../internal/errors.ts'
import { RpcHttpError, RpcResponseError, RpcTimeoutError, RpcTransportError } from './errors.ts'
import { isMethodUnsupported, shouldRetry } from './shouldRetry.ts'

const host = 'rpc.example.com'
const rpc = (code: number, message: string) =>
  new RpcResponseError({ method: 'eth_call', host, code, message })
const http = (status: number) => new RpcHttpError({ method: 'eth_call', host, status })

describe('shouldRetry', () => {
  test.each([
    [-32005, 'limit exceeded'],
    [-32603, 'internal error'],
    [-32000, 'header not found'],
    [-32000, 'rate limit exceeded'],
    [-32000, 'request timeout'],
    [-32000, 'Too Many Requests'],
    [-32000, 'unknown block'],
    [429, 'Your app has exceeded its compute units per second capacity'],
    [-32002, 'resource unavailable'],
  ])('behavior: retries JSON-RPC %i %s', (code, message) => {
    expect(shouldRetry(rpc(code, message))).toBe(true)
  })

  test.each([
    [3, 'execution reverted'],
    [-32000, 'execution reverted'],
    [-32603, 'execution reverted: Ownable: caller is not the owner'],
    [-32603, 'EVM error OutOfGas'],
    [-32603, 'EVM error InvalidFEOpcode'],
    [-32000, 'out of gas'],
    [-32602, 'invalid params'],
    [-32601, 'Method not found'],
    [-32600, 'Invalid request'],
    [-32000, 'the method debug_traceBlockByNumber does not exist/is not available'],
    [-32000, 'insufficient funds for gas * price + value'],
  ])('behavior: does not retry JSON-RPC %i %s', (code, message) => {
    expect(shouldRetry(rpc(code, message))).toBe(false)
  })

  test.each([408, 425, 429, 500, 502, 503, 504])('behavior: retries HTTP %i', (status) => {
    expect(shouldRetry(http(status))).toBe(true)
  })

  test.each([400, 401, 403, 404, 405])('behavior: does not retry HTTP %i', (status) => {
    expect(shouldRetry(http(status))).toBe(false)
  })

  test('behavior: network errors and timeouts', () => {
    expect(shouldRetry(new TypeError('fetch failed'))).toBe(true)
    expect(shouldRetry(new RpcTimeoutError({ method: 'eth_call', host, timeoutMs: 1 }))).toBe(true)
    expect(shouldRetry(new RpcTransportError({ method: 'eth_call', host, reason: 'x' }))).toBe(true)
    expect(shouldRetry(new RetryableError('x'))).toBe(true)
    expect(shouldRetry(new NonRetryableError('x'))).toBe(false)
    expect(shouldRetry(new Error('x'))).toBe(false)
  })
})

describe('isMethodUnsupported', () => {
  test('default', () => {
    expect(isMethodUnsupported(rpc(-32601, 'Method not found'))).toBe(true)
    expect(isMethodUnsupported(rpc(-32004, 'Method not supported'))).toBe(true)
    expect(
      isMethodUnsupported(
        rpc(-32000, 'the method eth_getBlockReceipts does not exist/is not available'),
      ),
    ).toBe(true)
    expect(isMethodUnsupported(rpc(-32000, 'trace_block is not supported'))).toBe(true)
    expect(isMethodUnsupported(rpc(-32000, 'header not found'))).toBe(false)
    expect(isMethodUnsupported(rpc(3, 'execution reverted'))).toBe(false)
    expect(isMethodUnsupported(http(404))).toBe(false)
  })
})

test('error: messages name the host only', () => {
  expect(rpc(3, 'execution reverted').message).toMatchInlineSnapshot(
    `"RPC eth_call on rpc.example.com failed with code 3: execution reverted"`,
  )
})
