import { randomUUID } from 'node:crypto'
import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import { ApiError, errorBody } from './ApiError.ts'

/**
 * Answers what Node's HTTP parser refuses before Fastify sees a request (a URL and headers past
 * its 16 KB, a request that is not HTTP) in the documented error shape with an
 * `X-Request-Id`, as every other answer, instead of Fastify's own body; a connection the client
 * reset gets nothing. The connection is closed after it. (Fastify sets no request timeout, so
 * a request that arrives slowly is waited for: no 408.)
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  if (socket.writable) socket.write(clientErrorResponse(error.code))
  socket.destroy(error)
}

/** The raw HTTP/1.1 answer to a parser error of `code`. Pure but for the request id. */
export function clientErrorResponse(code: string | undefined): string {
  const apiError =
    code === 'HPE_HEADER_OVERFLOW'
      ? new ApiError(
          'HEADERS_TOO_LARGE',
          'The request URL and headers are over 16 KB: send fewer or shorter parameters.',
        )
      : new ApiError('BAD_REQUEST', 'The request is not valid HTTP/1.1.')
  const body = JSON.stringify(errorBody(apiError))
  return [
    `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${randomUUID()}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n')
}
