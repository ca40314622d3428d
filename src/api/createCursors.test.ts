import { describe, expect, test } from 'vitest'
import { createCursors } from './createCursors.ts'

describe('createCursors', () => {
  const cursors = createCursors({ secret: 'test-secret' })

  test('default: a cursor decodes to its position for the same scope', () => {
    const c = cursors.encode('balances|0xab|1,8453', { chain: 1, token: '0xcd' })
    expect(c).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
    expect(cursors.decode('balances|0xab|1,8453', c)).toEqual({ chain: 1, token: '0xcd' })
  })

  test('behavior: another scope, an edited payload or another secret do not decode', () => {
    const c = cursors.encode('scope-a', [1, 2])
    expect(cursors.decode('scope-b', c)).toBeUndefined()
    const [payload, mac] = c.split('.') as [string, string]
    const edited = Buffer.from(JSON.stringify([1, 3])).toString('base64url')
    expect(cursors.decode('scope-a', `${edited}.${mac}`)).toBeUndefined()
    expect(cursors.decode('scope-a', `${payload}.${mac.slice(0, -2)}`)).toBeUndefined()
    expect(createCursors({ secret: 'other' }).decode('scope-a', c)).toBeUndefined()
  })

  test('error: garbage never throws', () => {
    for (const junk of ['', '.', 'abc', 'a.b', '💥.💥', 'x'.repeat(10_000), '%00.%00']) {
      expect(cursors.decode('s', junk)).toBeUndefined()
    }
  })
})
