import { decodeFunctionResult, encodeFunctionData, encodeFunctionResult, type Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import type { Address } from '../types.ts'
import {
  BATCH_READS_ABI,
  decodeBalances,
  decodeReads,
  encodeBalances,
  encodeReads,
} from './batchReadsAbi.ts'

/** Deterministic bytes from a seed (mulberry32), so a failure names its inputs. */
function createBytes(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
  const hex = (bytes: number): Hex =>
    `0x${Array.from({ length: bytes }, () =>
      Math.floor(next() * 256)
        .toString(16)
        .padStart(2, '0'),
    ).join('')}`
  return { next, hex, int: (below: number) => Math.floor(next() * below) }
}

const SEED = Number(process.env.SCRY_TEST_SEED ?? Math.floor(Math.random() * 2 ** 31))

describe(`batchReadsAbi (seed ${SEED})`, () => {
  it('encodes reads and balances exactly as viem does, for any lengths of data', () => {
    const r = createBytes(SEED)
    for (let round = 0; round < 40; round++) {
      const calls = Array.from({ length: r.int(30) }, () => ({
        to: r.hex(20) as Address,
        // Empty, shorter than a word, whole words and ragged lengths.
        data: r.hex([0, 4, 31, 32, 33, 36, 68, 100][r.int(8)] as number),
      }))
      const gasEach = BigInt(r.int(2 ** 31))
      const reserve = BigInt(r.int(2 ** 31))
      expect(encodeReads({ calls, gasEach, reserve })).toBe(
        encodeFunctionData({
          abi: BATCH_READS_ABI,
          functionName: 'reads',
          args: [calls.map((c) => c.to), calls.map((c) => c.data), gasEach, reserve],
        }),
      )
      const who = calls.map((c) => c.to)
      expect(encodeBalances(who)).toBe(
        encodeFunctionData({ abi: BATCH_READS_ABI, functionName: 'balances', args: [who] }),
      )
    }
  })

  it('decodes what viem encodes as the answers', () => {
    const r = createBytes(SEED + 1)
    for (let round = 0; round < 40; round++) {
      const n = r.int(30)
      const ok = Array.from({ length: n }, () => r.next() < 0.8)
      const out = Array.from({ length: n }, () => r.hex(r.int(100)))
      const answer = encodeFunctionResult({
        abi: BATCH_READS_ABI,
        functionName: 'reads',
        result: [ok, out],
      })
      expect(decodeReads(answer)).toEqual(ok.map((k, i) => ({ ok: k, data: out[i] })))
      const balances = Array.from({ length: n }, () => BigInt(r.hex(1 + r.int(32))))
      const encoded = encodeFunctionResult({
        abi: BATCH_READS_ABI,
        functionName: 'balances',
        result: balances,
      })
      expect(decodeBalances(encoded)).toEqual(balances)
    }
  })

  it('throws on answers that are not the function’s, as viem does', () => {
    const answer = encodeFunctionResult({
      abi: BATCH_READS_ABI,
      functionName: 'reads',
      result: [
        [true, false],
        ['0x1234', '0x'],
      ],
    })
    const body = answer.slice(2)
    const word = (i: number) => body.slice(i * 64, (i + 1) * 64)
    const withWord = (i: number, value: string) =>
      `0x${body.slice(0, i * 64)}${value}${body.slice((i + 1) * 64)}` as Hex
    const broken: Hex[] = [
      '0x',
      '0x1234',
      answer.slice(0, -64) as Hex, // the last element cut off
      withWord(3, '2'.padStart(64, '0')), // a bool of 2
      withWord(0, 'ff'.repeat(32)), // an offset past the end
      withWord(5, (1000).toString(16).padStart(64, '0')), // out's length differs from ok's
      `${answer}0` as Hex, // half a byte
    ]
    expect(word(2)).toBe('2'.padStart(64, '0')) // ok's length, where the cases above assume
    for (const data of broken) {
      expect(() => decodeReads(data), data).toThrow()
      expect(() =>
        decodeFunctionResult({ abi: BATCH_READS_ABI, functionName: 'reads', data }),
      ).toThrow()
    }
    expect(() => decodeBalances('0x')).toThrow()
  })
})
