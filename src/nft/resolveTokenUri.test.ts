import { expect, test } from 'vitest'
import { displayUrl, parseDataUri, resolveTokenUri, substituteTokenId } from './resolveTokenUri.ts'

const gw = 'https://gw.example/ipfs/'

test('default: ipfs:// goes through the gateway', () => {
  expect(resolveTokenUri({ uri: 'ipfs://bafycid/1.json', ipfsGateway: gw })).toEqual({
    type: 'http',
    url: 'https://gw.example/ipfs/bafycid/1.json',
  })
  expect(resolveTokenUri({ uri: 'ipfs://bafycid' })).toEqual({
    type: 'http',
    url: 'https://ipfs.io/ipfs/bafycid',
  })
})

test('behavior: ipfs://ipfs/<cid> and a gateway without a trailing slash', () => {
  expect(resolveTokenUri({ uri: 'ipfs://ipfs/bafycid/7', ipfsGateway: 'http://gw/ipfs' })).toEqual({
    type: 'http',
    url: 'http://gw/ipfs/bafycid/7',
  })
  expect(resolveTokenUri({ uri: 'IPFS://ipfs/Qm1', ipfsGateway: gw })).toEqual({
    type: 'http',
    url: 'https://gw.example/ipfs/Qm1',
  })
})

test('behavior: {id} becomes 64 lowercase hex digits for ERC1155 only', () => {
  const uri = 'https://x.example/{id}.json'
  expect(substituteTokenId({ uri, standard: 'erc1155', tokenId: 0xabcn })).toBe(
    `https://x.example/${'0'.repeat(61)}abc.json`,
  )
  expect(substituteTokenId({ uri, standard: 'erc721', tokenId: 0xabcn })).toBe(uri)
  expect(
    substituteTokenId({ uri: '{id}/{id}', standard: 'erc1155', tokenId: (1n << 256n) - 1n }),
  ).toBe(`${'f'.repeat(64)}/${'f'.repeat(64)}`)
})

test('behavior: data: URIs, base64 and percent-encoded, are decoded in place', () => {
  const json = '{"name":"A","description":"50% off"}'
  const b64 = resolveTokenUri({
    uri: `data:application/json;base64,${Buffer.from(json).toString('base64')}`,
  })
  expect(b64.type === 'data' && b64.body.toString()).toBe(json)
  const pct = resolveTokenUri({ uri: `data:application/json,${encodeURIComponent(json)}` })
  expect(pct.type === 'data' && [pct.mediaType, pct.body.toString()]).toEqual([
    'application/json',
    json,
  ])
  // A raw '%' that is not an escape: the text is taken as it is.
  expect(parseDataUri(`data:application/json,${json}`)?.body.toString()).toBe(json)
  expect(parseDataUri('data:,hello')).toEqual({
    mediaType: 'text/plain',
    body: Buffer.from('hello'),
  })
  expect(parseDataUri('data:application/json;utf8,{"a":1}')?.mediaType).toBe('application/json')
})

test('error: unsupported and malformed URIs', () => {
  expect(resolveTokenUri({ uri: '' })).toEqual({ type: 'unsupported', reason: 'empty URI' })
  expect(resolveTokenUri({ uri: 'no-scheme/1.json' })).toEqual({
    type: 'unsupported',
    reason: 'URI without a scheme',
  })
  expect(resolveTokenUri({ uri: 'file:///etc/passwd' })).toEqual({
    type: 'unsupported',
    reason: 'unsupported URI scheme file',
  })
  expect(resolveTokenUri({ uri: 'ipfs://' })).toEqual({
    type: 'unsupported',
    reason: 'ipfs: URI without a content id',
  })
  expect(resolveTokenUri({ uri: 'data:application/json;base64' })).toEqual({
    type: 'unsupported',
    reason: 'malformed data: URI',
  })
  expect(resolveTokenUri({ uri: 'data:application/json;base64,!!!' })).toEqual({
    type: 'unsupported',
    reason: 'malformed data: URI',
  })
  expect(resolveTokenUri({ uri: 'http://' })).toEqual({
    type: 'unsupported',
    reason: 'malformed http URL',
  })
})

test('behavior: ar:// and display URLs', () => {
  expect(resolveTokenUri({ uri: 'ar://txid/0' })).toEqual({
    type: 'http',
    url: 'https://arweave.net/txid/0',
  })
  expect(displayUrl({ url: 'ipfs://cid/a.png', ipfsGateway: gw })).toBe(
    'https://gw.example/ipfs/cid/a.png',
  )
  expect(displayUrl({ url: 'https://x/a.png' })).toBe('https://x/a.png')
  expect(displayUrl({ url: 'data:image/svg+xml;base64,AA==' })).toBe(
    'data:image/svg+xml;base64,AA==',
  )
  expect(displayUrl({ url: 'javascript:alert(1)' })).toBeUndefined()
  expect(displayUrl({ url: 'data:text/html,<script>' })).toBeUndefined()
})
