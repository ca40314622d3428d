import { bytesToHex, hexToBytes } from './hexBytes.ts'
import type { LogRecord } from './schema.ts'

/** A transaction's log as `transactions.logs` keeps it (migration 0022). */
export type PackedLog = Pick<LogRecord, 'log_index' | 'address' | 'topics' | 'data'>

const ADDRESS_BYTES = 20
const TOPIC_BYTES = 32
const MAX_TOPICS = 255
const MAX_U32 = 0xffff_ffff

/**
 * A transaction's logs as one byte string, in the order given (the indexer gives log-index
 * order). Each log: its log index (4 bytes, big-endian), its address (20), the number of its
 * topics (1), the topics (32 each), the length of its data (4, big-endian) and the data. The
 * migration that moved stored logs here (0022) writes the same bytes in SQL. Pure.
 */
export function packLogs(logs: readonly PackedLog[]): Buffer {
  const parts: Buffer[] = []
  for (const log of logs) {
    const topics = (JSON.parse(log.topics) as string[]).map(hexToBytes)
    const address = hexToBytes(log.address)
    const data = hexToBytes(log.data)
    if (address.byteLength !== ADDRESS_BYTES || topics.length > MAX_TOPICS)
      throw new Error(`packLogs: log ${log.log_index} has no 20-byte address or too many topics`)
    if (topics.some((t) => t.byteLength !== TOPIC_BYTES))
      throw new Error(`packLogs: log ${log.log_index} has a topic that is not 32 bytes`)
    if (!(log.log_index >= 0 && log.log_index <= MAX_U32 && data.byteLength <= MAX_U32))
      throw new Error(`packLogs: log ${log.log_index} does not fit`)
    const head = Buffer.alloc(4 + ADDRESS_BYTES + 1)
    head.writeUInt32BE(log.log_index, 0)
    address.copy(head, 4)
    head.writeUInt8(topics.length, 4 + ADDRESS_BYTES)
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.byteLength, 0)
    parts.push(head, ...topics, length, data)
  }
  return Buffer.concat(parts)
}

/** The logs `packLogs` packed, addresses and hex in lowercase. Throws on bytes it did not write. Pure. */
export function unpackLogs(packed: Uint8Array): PackedLog[] {
  const bytes = Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength)
  const logs: PackedLog[] = []
  let at = 0
  const need = (n: number) => {
    if (at + n > bytes.byteLength) throw new Error('unpackLogs: the packed logs are cut short')
  }
  while (at < bytes.byteLength) {
    need(4 + ADDRESS_BYTES + 1)
    const log_index = bytes.readUInt32BE(at)
    const address = bytesToHex(bytes.subarray(at + 4, at + 4 + ADDRESS_BYTES))
    const count = bytes.readUInt8(at + 4 + ADDRESS_BYTES)
    at += 4 + ADDRESS_BYTES + 1
    need(count * TOPIC_BYTES + 4)
    const topics: string[] = []
    for (let i = 0; i < count; i++, at += TOPIC_BYTES)
      topics.push(bytesToHex(bytes.subarray(at, at + TOPIC_BYTES)))
    const length = bytes.readUInt32BE(at)
    at += 4
    need(length)
    const data = bytesToHex(bytes.subarray(at, at + length))
    at += length
    logs.push({ log_index, address, topics: JSON.stringify(topics), data })
  }
  return logs
}
