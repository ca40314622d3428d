import type { Insertable } from 'kysely'
import { bytesToHex, hexToBytes } from './hexBytes.ts'
import type { Database, LogRecord, LogTable } from './schema.ts'

const TOPIC_BYTES = 32

/**
 * The row the store keeps for a log: its topics one after another, its data and its address,
 * as bytes.
 */
export function toStoredLog(record: LogRecord): Insertable<Database['logs']> {
  const topics = JSON.parse(record.topics) as string[]
  return {
    ...record,
    address: hexToBytes(record.address),
    topics: Buffer.concat(topics.map(hexToBytes)),
    data: hexToBytes(record.data),
  }
}

/** The log a stored row holds (`toStoredLog` undone). Pure. */
export function fromStoredLog<R extends Pick<LogTable, 'address' | 'topics' | 'data'>>(
  row: R,
): Omit<R, 'address' | 'topics' | 'data'> & Pick<LogRecord, 'address' | 'topics' | 'data'> {
  const topics: string[] = []
  for (let at = 0; at < row.topics.byteLength; at += TOPIC_BYTES) {
    topics.push(bytesToHex(row.topics.subarray(at, at + TOPIC_BYTES)))
  }
  return {
    ...row,
    address: bytesToHex(row.address),
    topics: JSON.stringify(topics),
    data: bytesToHex(row.data),
  }
}
