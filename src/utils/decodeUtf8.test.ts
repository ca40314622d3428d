import { describe, expect, test } from 'vitest'
import { decodeUtf8 } from './decodeUtf8.ts'

const bytesOf = (bytes: number[]) => new Uint8Array(bytes).buffer

describe('decodeUtf8', () => {
  test('default', () => {
    const text = '{"jsonrpc":"2.0","id":1,"result":"0x00ff"}'
    expect(decodeUtf8(new TextEncoder().encode(text).buffer)).toBe(text)
  })

  test('behavior: text beyond ASCII decoded as UTF-8, as Response#text() does', async () => {
    for (const bytes of [
      [0xef, 0xbb, 0xbf, 0x22, 0xc3, 0xa9, 0x22],
      [0x22, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0x22],
      [0x22, 0xff, 0xc3, 0x22],
      [0x80],
    ]) {
      expect(decodeUtf8(bytesOf(bytes))).toBe(await new Response(new Uint8Array(bytes)).text())
    }
    expect(decodeUtf8(bytesOf([0x22, 0xc3, 0xa9, 0x22]))).toBe('"é"')
  })

  test('behavior: empty', () => {
    expect(decodeUtf8(new ArrayBuffer(0))).toBe('')
  })
})
