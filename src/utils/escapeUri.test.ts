import ajvFormats from 'ajv-formats'
import { expect, test } from 'vitest'
import { escapeUri } from './escapeUri.ts'

// ajv-formats' `uri` (full mode), the check a client's validator makes.
const uri = ajvFormats.default.get('uri') as (text: string) => boolean

test('default: a valid URL is kept as it is', () => {
  for (const url of [
    'https://example.com/a/b.png?x=1&y=%20#top',
    'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
    'https://arweave.net/abc_-~.png',
    'http://[::1]:8080/a.png',
  ]) {
    expect(escapeUri(url)).toBe(url)
  }
})

test('behavior: what a URI cannot hold is percent-encoded, once', () => {
  const svg = 'data:image/svg+xml;utf8,<svg width="1"><text>héllo 100%</text></svg>'
  const escaped = escapeUri(svg)
  expect(escaped).toBe(
    'data:image/svg+xml;utf8,%3Csvg%20width=%221%22%3E%3Ctext%3Eh%C3%A9llo%20100%25%3C/text%3E%3C/svg%3E',
  )
  expect(escapeUri(escaped)).toBe(escaped)
  expect(decodeURIComponent(escaped)).toBe(svg)
  expect(escapeUri('https://x/\uD800 {}|\\^`[0]')).toBe(
    'https://x/%EF%BF%BD%20%7B%7D%7C%5C%5E%60%5B0%5D',
  )
})

test('behavior: hostile image URLs come out as URIs a strict validator accepts', () => {
  for (const url of [
    'data:image/svg+xml;utf8,<svg xmlns="http://www.w3.org/2000/svg">\'"{}|^`</svg>',
    'https://example.com/path with spaces/ñ.png?q=a b#frag ment',
    'https://example.com/%zz/100%/[x]',
    'data:image/png;base64,iVBOR w0K\u2028',
  ]) {
    expect(uri(url), url).toBe(false)
    expect(uri(escapeUri(url)), escapeUri(url)).toBe(true)
  }
})
