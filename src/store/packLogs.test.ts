import { toEventSelector } from 'viem'
import { describe, expect, test } from 'vitest'
import { createPrng } from '../dev/createPrng.ts'
import { KNOWN_WORD_BASE } from './knownWords.ts'
import { type PackedLog, packLogs, unpackLogs } from './packLogs.ts'

const SEED = Number(process.env.SCRY_TEST_SEED ?? Math.floor(Math.random() * 2 ** 31))
const TRANSFER = toEventSelector('Transfer(address,address,uint256)')

const hex = (bytes: number, next: () => number) =>
  `0x${Array.from({ length: bytes }, () =>
    Math.floor(next() * 256)
      .toString(16)
      .padStart(2, '0'),
  ).join('')}`

/** A 32-byte word as ABI encoding makes them: runs of 0x00 or 0xff, known topics, or noise. */
function word(prng: ReturnType<typeof createPrng>): string {
  const pick = prng.int(5)
  if (pick === 0) return TRANSFER
  const body = hex(32, prng.next).slice(2)
  const run = prng.int(33)
  if (pick === 1) return `0x${'00'.repeat(run)}${body.slice(run * 2)}`
  if (pick === 2) return `0x${'ff'.repeat(run)}${body.slice(run * 2)}`
  return `0x${body}`
}

describe('packLogs', () => {
  test('default: random logs come back as they went in', () => {
    console.log(`packLogs: seed ${SEED} (SCRY_TEST_SEED=${SEED} repeats it)`)
    const prng = createPrng(SEED)
    for (let round = 0; round < 300; round++) {
      let index = prng.chance(0.1) ? 0xffff_ffff - 10 : prng.int(1000)
      const logs: PackedLog[] = Array.from({ length: prng.int(6) }, () => ({
        log_index: index++,
        address: hex(20, prng.next),
        topics: Array.from({ length: prng.int(5) }, () => word(prng)),
        data: prng.chance(0.5)
          ? `0x${Array.from({ length: prng.int(6) }, () => word(prng).slice(2)).join('')}`
          : hex(prng.chance(0.2) ? 0 : prng.int(400), prng.next),
      }))
      expect(unpackLogs(packLogs(logs)), `seed ${SEED} round ${round}`).toEqual(logs)
    }
  })

  test('default: the layout is index, address, topic count, topics, data length, data', () => {
    const to = `${'00'.repeat(12)}${'cd'.repeat(20)}`
    const log: PackedLog = {
      log_index: 300,
      address: `0x${'ab'.repeat(20)}`,
      topics: [TRANSFER, `0x${to}`, `0x${'01'.repeat(32)}`],
      data: `0x${'00'.repeat(24)}0de0b6b3a7640000${'ff'.repeat(31)}fe`,
    }
    // 300 as a varint is ac 02; 3 topics with word data is 83; Transfer is the first known
    // word; the address topic drops its 12 zero bytes, the data's first word 24 and its
    // second 31 bytes of 0xff (header 32 + 31).
    const expected = [
      'ac02',
      'ab'.repeat(20),
      '83',
      KNOWN_WORD_BASE.toString(16),
      `0c${'cd'.repeat(20)}`,
      `00${'01'.repeat(32)}`,
      '40',
      '180de0b6b3a7640000',
      `${(32 + 31).toString(16)}fe`,
    ].join('')
    expect(packLogs([log]).toString('hex')).toBe(expected)
    expect(unpackLogs(Buffer.from(expected, 'hex'))).toEqual([log])
    // Data that is not whole words is kept as it is.
    const odd = { ...log, topics: [], data: '0xc0ffee' }
    expect(packLogs([odd]).toString('hex')).toBe(`ac02${'ab'.repeat(20)}0003c0ffee`)
    expect(packLogs([]).byteLength).toBe(0)
    expect(unpackLogs(new Uint8Array())).toEqual([])
  })

  test('behavior: an ERC20 transfer log takes 75 bytes (157 in the layout of 0022)', () => {
    const pad = (h: string) => `0x${h.slice(2).padStart(64, '0')}`
    const log: PackedLog = {
      log_index: 7,
      address: `0x${'ab'.repeat(20)}`,
      topics: [TRANSFER, pad(`0x${'11'.repeat(20)}`), pad(`0x${'22'.repeat(20)}`)],
      data: pad('0x0de0b6b3a7640000'),
    }
    expect(packLogs([log]).byteLength).toBe(75)
  })

  test('error: bytes cut short, or a log that cannot be packed, throw', () => {
    const packed = packLogs([
      {
        log_index: 200,
        address: `0x${'00'.repeat(20)}`,
        topics: [TRANSFER, `0x${'00'.repeat(31)}01`],
        data: `0x${'12'.repeat(64)}`,
      },
    ])
    for (let end = 1; end < packed.byteLength; end++) {
      expect(() => unpackLogs(packed.subarray(0, end))).toThrow(/cut short/)
    }
    expect(() => unpackLogs(Buffer.from(`00${'00'.repeat(20)}01ff00`, 'hex'))).toThrow(
      'unpackLogs: no known word 255',
    )
    expect(() => unpackLogs(Buffer.from(`00${'00'.repeat(20)}8003`, 'hex'))).toThrow(
      'unpackLogs: data packed as words is not whole words',
    )
    expect(() => unpackLogs(Buffer.from('ffffffffff7f', 'hex'))).toThrow(
      'unpackLogs: a varint runs on',
    )
    expect(() => packLogs([{ log_index: 0, address: '0x12', topics: [], data: '0x' }])).toThrow(
      /20-byte address/,
    )
    expect(() =>
      packLogs([{ log_index: 0, address: `0x${'00'.repeat(20)}`, topics: ['0x12'], data: '0x' }]),
    ).toThrow(/32 bytes/)
    expect(() =>
      packLogs([{ log_index: 2 ** 32, address: `0x${'00'.repeat(20)}`, topics: [], data: '0x' }]),
    ).toThrow(/below 2\^32/)
    // The writer is shared between calls: what a failed call wrote is not in the next one.
    expect(packLogs([odd()]).toString('hex')).toBe(`00${'ab'.repeat(20)}0003c0ffee`)
  })
})

const odd = (): PackedLog => ({
  log_index: 0,
  address: `0x${'ab'.repeat(20)}`,
  topics: [],
  data: '0xc0ffee',
})
