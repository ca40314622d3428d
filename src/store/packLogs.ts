import { createPackReader } from './createPackReader.ts'
import { createPackWriter } from './createPackWriter.ts'
import { bytesToHex } from './hexBytes.ts'
import type { LogRecord } from './schema.ts'

/** A transaction's log as `transactions.logs` keeps it (migrations 0022, 0023). */
export type PackedLog = Pick<LogRecord, 'log_index' | 'address' | 'topics' | 'data'>

const ADDRESS_BYTES = 20
const TOPIC_BYTES = 32
/** The topic count's byte; its top bit says the data is packed as words. */
const MAX_TOPICS = 0x7f
const DATA_AS_WORDS = 0x80

/**
 * A transaction's logs as one byte string, in the order given (the indexer gives log-index
 * order), as migration 0023 lays them out (`createPackWriter`). Each log: its log index
 * (varint), its address (20 bytes), a byte with the number of its topics (the top bit set when
 * the data is whole 32-byte words), the topics as words (a known event's topic is one byte, an
 * address a byte and its 20), the data's length in bytes (varint) and the data, as words or
 * as it is. Pure. Migration 0023 writes stored logs with this function: a later change of
 * layout needs a migration of its own, and must leave 0023 a copy of this one.
 */
export function packLogs(logs: readonly PackedLog[]): Buffer {
  out.reset()
  for (const log of logs) {
    const { topics } = log
    // The data waits in scratch memory while the topics are written, since the byte before
    // them says whether it is words; addresses and topics go straight into the writer.
    const data = out.scratch(log.data)
    if (topics.length > MAX_TOPICS)
      throw new Error(`packLogs: log ${log.log_index} has no 20-byte address or too many topics`)
    const asWords = data.byteLength > 0 && data.byteLength % TOPIC_BYTES === 0
    out.varint(log.log_index)
    if (out.hex(log.address) !== ADDRESS_BYTES)
      throw new Error(`packLogs: log ${log.log_index} has no 20-byte address or too many topics`)
    out.byte(topics.length | (asWords ? DATA_AS_WORDS : 0))
    for (const topic of topics) {
      if (out.hexWord(topic) !== TOPIC_BYTES)
        throw new Error(`packLogs: log ${log.log_index} has a topic that is not 32 bytes`)
    }
    out.varint(data.byteLength)
    if (asWords) out.words(data)
    else out.bytes(data)
  }
  return out.done()
}

/** One writer for every call (each runs to its end without a pause: nothing interleaves). */
const out = createPackWriter(4096)

/** The logs `packLogs` packed, addresses and hex in lowercase. Throws on bytes it did not write. Pure. */
export function unpackLogs(packed: Uint8Array): PackedLog[] {
  const read = createPackReader(packed, 'unpackLogs')
  const logs: PackedLog[] = []
  while (read.more()) {
    const log_index = read.varint()
    const address = bytesToHex(read.bytes(ADDRESS_BYTES))
    const head = read.byte()
    const topics: string[] = []
    for (let i = 0; i < (head & MAX_TOPICS); i++) topics.push(bytesToHex(read.words(1)))
    const length = read.varint()
    if (head & DATA_AS_WORDS && length % TOPIC_BYTES !== 0)
      throw new Error('unpackLogs: data packed as words is not whole words')
    const data = bytesToHex(
      head & DATA_AS_WORDS ? read.words(length / TOPIC_BYTES) : read.bytes(length),
    )
    logs.push({ log_index, address, topics, data })
  }
  return logs
}
