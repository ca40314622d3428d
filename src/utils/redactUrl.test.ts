import { expect, test } from 'vitest'
import { redactUrl } from './redactUrl.ts'

test('default', () => {
  expect(redactUrl('https://user:secret@eth.example.com:8545/v2/KEY?token=x#y')).toBe(
    'https://eth.example.com:8545',
  )
})

test('args: URL object, ws', () => {
  expect(redactUrl(new URL('wss://base.example/ws/KEY'))).toBe('wss://base.example')
})

test('behavior: not a URL', () => {
  expect(redactUrl('KEY-without-scheme')).toBe('[invalid url]')
})
