import { expect, test } from 'vitest'
import { ConfigError, NonRetryableError } from '../internal/errors.ts'
import { reportError } from './reportError.ts'

function report(error: unknown, debug = false): string {
  const written: string[] = []
  reportError({ error, debug, write: (text) => written.push(text) })
  return written.join('')
}

test('default', () => {
  expect(
    report(new ConfigError('Database is not reachable', { details: 'host: db.local' })),
  ).toMatchInlineSnapshot(`
      "error: Database is not reachable
      host: db.local
      "
    `)
})

test('behavior: a BaseError never shows a stack, not even in debug', () => {
  const error = new NonRetryableError('Migration 0003 failed', {
    cause: new ConfigError('Column exists'),
  })
  expect(report(error, true)).toMatchInlineSnapshot(`
    "error: Migration 0003 failed
    cause: Column exists
    "
  `)
})

test('edge: a cause the details already say is not written twice', () => {
  const cause = new ConfigError('RPC eth_chainId on 127.0.0.1:9 failed: connection failed')
  const error = new NonRetryableError('RPC eth_chainId failed on 127.0.0.1:9 after 7 attempts', {
    details: cause.shortMessage,
    cause,
  })
  expect(report(error)).toMatchInlineSnapshot(`
    "error: RPC eth_chainId failed on 127.0.0.1:9 after 7 attempts
    RPC eth_chainId on 127.0.0.1:9 failed: connection failed
    "
  `)
})

test('behavior: an unexpected error is a bug', () => {
  expect(report(new TypeError('x is undefined\nmore'))).toMatchInlineSnapshot(`
    "error: x is undefined
    This is a bug in Scry; please report it (run with SCRY_DEBUG=1 to see the stack trace).
    "
  `)
  expect(report('thrown string')).toMatchInlineSnapshot(`
    "error: thrown string
    This is a bug in Scry; please report it (run with SCRY_DEBUG=1 to see the stack trace).
    "
  `)
})

test('behavior: unexpected error with SCRY_DEBUG shows the stack', () => {
  const text = report(new TypeError('x is undefined'), true)
  expect(text).toContain('error: x is undefined\nTypeError: x is undefined\n    at ')
  expect(text).toContain('This is a bug in Scry; please report it.')
})
