import { type Hex, parseAbi, toFunctionSelector } from 'viem'
import type { Address } from '../types.ts'

/**
 * The ABI of `BatchReads.sol`, encoded and decoded by hand: viem's general encoder takes
 * ~3 ms to encode a call of 1,000 reads and ~3 ms to decode its answer (a quarter of that
 * here), and a batch makes several. `batchReadsAbi.test.ts` checks both ways against viem's.
 */
export const BATCH_READS_ABI = parseAbi([
  'function reads(address[] to, bytes[] data, uint256 gasEach, uint256 reserve) view returns (bool[] ok, bytes[] out)',
  'function balances(address[] who) view returns (uint256[] out)',
])

const READS = toFunctionSelector(BATCH_READS_ABI[0])
const BALANCES = toFunctionSelector(BATCH_READS_ABI[1])
/** One 32-byte word, in hex digits. */
const WORD = 64

const word = (n: number | bigint) => n.toString(16).padStart(WORD, '0')
const addressWord = (address: Address) => address.slice(2).toLowerCase().padStart(WORD, '0')
const padRight = (digits: string) => digits.padEnd(Math.ceil(digits.length / WORD) * WORD, '0')

/** Calldata of `reads(to, data, gasEach, reserve)`. */
export function encodeReads({
  calls,
  gasEach,
  reserve,
}: {
  calls: readonly { to: Address; data: Hex }[]
  gasEach: bigint
  reserve: bigint
}): Hex {
  const n = calls.length
  const parts: string[] = [
    READS,
    word(4 * 32),
    word((4 + 1 + n) * 32),
    word(gasEach),
    word(reserve),
  ]
  parts.push(word(n))
  for (const c of calls) parts.push(addressWord(c.to))
  parts.push(word(n))
  // Offsets of the elements, from the first offset's word; each element is its length and
  // its bytes padded to whole words.
  let at = n * 32
  for (const c of calls) {
    parts.push(word(at))
    at += 32 + Math.ceil((c.data.length - 2) / WORD) * 32
  }
  for (const c of calls) parts.push(word((c.data.length - 2) / 2), padRight(c.data.slice(2)))
  return parts.join('') as Hex
}

/** The answer of `reads`; throws when the data is not one. */
export function decodeReads(data: Hex): { ok: boolean; data: Hex }[] {
  const read = createWordReader(data)
  const okAt = read.offset(0)
  const outAt = read.offset(32)
  const n = read.length(okAt)
  if (read.length(outAt) !== n) throw new Error('reads: ok and out differ in length')
  const out: { ok: boolean; data: Hex }[] = []
  const elements = outAt + 32
  for (let i = 0; i < n; i++) {
    const flag = read.uint(okAt + 32 + i * 32)
    if (flag > 1n) throw new Error('reads: not a bool')
    const at = elements + read.offset(elements + i * 32)
    out.push({ ok: flag === 1n, data: read.bytes(at) })
  }
  return out
}

/** Calldata of `balances(who)`. */
export function encodeBalances(addresses: readonly Address[]): Hex {
  return [BALANCES, word(32), word(addresses.length), ...addresses.map(addressWord)].join('') as Hex
}

/** The answer of `balances`; throws when the data is not one. */
export function decodeBalances(data: Hex): bigint[] {
  const read = createWordReader(data)
  const at = read.offset(0)
  const n = read.length(at)
  return Array.from({ length: n }, (_, i) => read.uint(at + 32 + i * 32))
}

/** Reads ABI words of `data` at byte positions, checking every position against its length. */
function createWordReader(data: Hex) {
  if (!/^0x([0-9a-fA-F]{2})*$/.test(data)) throw new Error('not hex bytes')
  const size = (data.length - 2) / 2
  const uint = (at: number): bigint => {
    if (at < 0 || at + 32 > size) throw new Error(`no word at byte ${at} of ${size}`)
    return BigInt(`0x${data.slice(2 + at * 2, 2 + (at + 32) * 2)}`)
  }
  // An offset or length past the data cannot be a position in it.
  const small = (at: number): number => {
    const value = uint(at)
    if (value > BigInt(size)) throw new Error(`${value} at byte ${at} is past the data`)
    return Number(value)
  }
  return {
    uint,
    offset: small,
    length: small,
    bytes(at: number): Hex {
      const length = small(at)
      if (at + 32 + length > size) throw new Error(`bytes at ${at} run past the data`)
      return `0x${data.slice(2 + (at + 32) * 2, 2 + (at + 32 + length) * 2)}` as Hex
    },
  }
}
