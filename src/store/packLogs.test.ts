import { describe, expect, test } from 'vitest'
import { createPrng } from '../dev/createPrng.ts'
import { type PackedLog, packLogs, unpackLogs } from './packLogs.ts'

const SEED = Number(process.env.SCRY_TEST_SEED ?? Math.floor(Math.random() * 2 ** 31))

const hex = (bytes: number, next: () => number) =>
  `0x${Array.from({ length: bytes }, () =>
    Math.floor(next() * 256)
      .toString(16)
      .padStart(2, '0'),
  ).join('')}`

describe('packLogs', () => {
  test('default: random logs come back as they went in', () => {
    console.log(`packLogs: seed ${SEED} (SCRY_TEST_SEED=${SEED} repeats it)`)
    const prng = createPrng(SEED)
    for (let round = 0; round < 200; round++) {
      let index = prng.int(1000)
      const logs: PackedLog[] = Array.from({ length: prng.int(6) }, () => ({
        log_index: index++,
        address: hex(20, prng.next),
        topics: JSON.stringify(Array.from({ length: prng.int(5) }, () => hex(32, prng.next))),
        data: hex(prng.chance(0.2) ? 0 : prng.int(400), prng.next),
      }))
      expect(unpackLogs(packLogs(logs)), `seed ${SEED} round ${round}`).toEqual(logs)
    }
  })

  test('default: the layout is index, address, topic count, topics, data length, data', () => {
    const log: PackedLog = {
      log_index: 258,
      address: `0x${'ab'.repeat(20)}`,
      topics: JSON.stringify([`0x${'01'.repeat(32)}`]),
      data: '0xc0ffee',
    }
    const expected = `00000102${'ab'.repeat(20)}01${'01'.repeat(32)}00000003c0ffee`
    expect(packLogs([log]).toString('hex')).toBe(expected)
    expect(packLogs([]).byteLength).toBe(0)
    expect(unpackLogs(new Uint8Array())).toEqual([])
  })

  test('error: bytes cut short, or a log that cannot be packed, throw', () => {
    const packed = packLogs([
      { log_index: 0, address: `0x${'00'.repeat(20)}`, topics: '[]', data: '0x1234' },
    ])
    for (let end = 1; end < packed.byteLength; end++) {
      expect(() => unpackLogs(packed.subarray(0, end))).toThrow(/cut short/)
    }
    expect(() => packLogs([{ log_index: 0, address: '0x12', topics: '[]', data: '0x' }])).toThrow(
      /20-byte address/,
    )
    expect(() =>
      packLogs([{ log_index: 0, address: `0x${'00'.repeat(20)}`, topics: '["0x12"]', data: '0x' }]),
    ).toThrow(/32 bytes/)
  })
})
