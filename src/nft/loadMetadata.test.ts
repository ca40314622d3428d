import { expect, test } from 'vitest'
import { InvalidMetadataError, loadMetadata } from './loadMetadata.ts'
import { shapeMetadata } from './shapeMetadata.ts'

const options = {
  standard: 'erc721' as const,
  tokenId: 1n,
  ipfsGateway: 'https://gw/ipfs/',
  allowPrivate: false,
  maxBytes: 1024,
  timeoutMs: 1000,
}
const b64 = (text: string) => `data:application/json;base64,${Buffer.from(text).toString('base64')}`

test('default: a data: document is shaped without a fetch', async () => {
  const doc = {
    name: 'A\u0000 #1',
    description: 'line1\nline2',
    image: 'ipfs://cid/1.png',
    attributes: [
      { trait_type: 'Hat', value: 'Red' },
      { value: 3, display_type: 'number', max_value: 10 },
    ],
    extra: { ignored: true },
  }
  expect(await loadMetadata({ ...options, rawUri: b64(JSON.stringify(doc)) })).toEqual({
    uri: b64(JSON.stringify(doc)),
    metadata: {
      name: 'A #1',
      description: 'line1\nline2',
      image: 'ipfs://cid/1.png',
      attributes: [
        { trait_type: 'Hat', value: 'Red' },
        { value: 3, display_type: 'number', max_value: 10 },
      ],
    },
  })
})

test('error: hostile documents fail cleanly', async () => {
  const cases: [string, string][] = [
    [b64('not json'), 'The metadata is not a JSON object.'],
    [b64('[1,2,3]'), 'The metadata is not a JSON object.'],
    [b64('null'), 'The metadata is not a JSON object.'],
    [b64(`{"a":"${'x'.repeat(2000)}"}`), 'The metadata is larger than 1024 bytes.'],
    [b64(`${'['.repeat(100_000)}`), 'The metadata is larger than 1024 bytes.'],
    ['data:image/png;base64,AAAA', 'The data: URI holds image/png, not JSON.'],
    ['javascript:alert(1)', 'Cannot read metadata: unsupported URI scheme javascript.'],
    ['   ', 'Cannot read metadata: empty URI.'],
  ]
  for (const [rawUri, message] of cases) {
    const error = await loadMetadata({ ...options, rawUri }).catch((e) => e)
    expect([rawUri.slice(0, 40), error]).toEqual([
      rawUri.slice(0, 40),
      new InvalidMetadataError(message),
    ])
  }
  const deep = await loadMetadata({
    ...options,
    maxBytes: 1_000_000,
    rawUri: b64(`${'['.repeat(200_000)}${']'.repeat(200_000)}`),
  }).catch((e) => e)
  expect(deep).toBeInstanceOf(InvalidMetadataError)
})

test('behavior: shaping keeps only well-typed fields', () => {
  expect(shapeMetadata({ name: 5, description: ['x'], image_url: 'https://x/a.png' })).toEqual({
    image: 'https://x/a.png',
  })
  expect(shapeMetadata({ attributes: { Hat: 'Red', Size: 3, Bad: { x: 1 } } })).toEqual({
    attributes: [
      { trait_type: 'Hat', value: 'Red' },
      { trait_type: 'Size', value: 3 },
    ],
  })
  expect(
    shapeMetadata({ attributes: Array.from({ length: 500 }, (_, i) => ({ value: i })) }).attributes
      ?.length,
  ).toBe(100)
  expect(shapeMetadata({ name: 'x'.repeat(1000) }).name?.length).toBe(256)
  expect(shapeMetadata({ image: `data:image/svg+xml,${'a'.repeat(40_000)}` })).toEqual({})
  expect(shapeMetadata('text')).toEqual({})
  expect(shapeMetadata({ __proto__: { name: 'x' } })).toEqual({})
})
