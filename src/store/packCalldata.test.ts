import { describe, expect, test } from 'vitest'
import { createPrng } from '../dev/createPrng.ts'
import { packCalldata, unpackCalldata } from './packCalldata.ts'

const SEED = Number(process.env.SCRY_TEST_SEED ?? Math.floor(Math.random() * 2 ** 31))

const hex = (bytes: number, next: () => number) =>
  Array.from({ length: bytes }, () =>
    Math.floor(next() * 256)
      .toString(16)
      .padStart(2, '0'),
  ).join('')

describe('packCalldata', () => {
  test('default: random calldata comes back as it went in', () => {
    console.log(`packCalldata: seed ${SEED} (SCRY_TEST_SEED=${SEED} repeats it)`)
    const prng = createPrng(SEED)
    for (let round = 0; round < 500; round++) {
      const words = Array.from({ length: prng.int(8) }, () => {
        const run = prng.int(33)
        const fill = prng.chance(0.7) ? '00' : 'ff'
        return `${fill.repeat(run)}${hex(32 - run, prng.next)}`
      })
      const input = prng.chance(0.7)
        ? `0x${hex(4, prng.next)}${words.join('')}`
        : `0x${hex(prng.int(200), prng.next)}`
      expect(unpackCalldata(packCalldata(input)), `seed ${SEED} round ${round}`).toBe(input)
    }
  })

  test('default: a selector and its words, or the bytes as they are', () => {
    // transfer(address,uint256): the address word loses 12 zero bytes, the amount 31.
    const call = `0xa9059cbb${'00'.repeat(12)}${'cd'.repeat(20)}${'00'.repeat(31)}64`
    expect(packCalldata(call).toString('hex')).toBe(`01a9059cbb0c${'cd'.repeat(20)}1f64`)
    expect(packCalldata('0xc0ffee').toString('hex')).toBe('00c0ffee')
    expect(packCalldata('0x').byteLength).toBe(0)
    expect(unpackCalldata(new Uint8Array())).toBe('0x')
  })

  test('error: bytes it did not write throw', () => {
    const packed = packCalldata(`0xa9059cbb${'00'.repeat(12)}${'cd'.repeat(20)}`)
    // Cut anywhere but after the selector (a call without arguments), it cannot be read.
    for (let end = 1; end < packed.byteLength; end++)
      if (end !== 5) expect(() => unpackCalldata(packed.subarray(0, end))).toThrow(/cut short/)
    expect(() => unpackCalldata(Buffer.from('02', 'hex'))).toThrow('unpackCalldata: no layout 2')
  })
})
