import { type Kysely, sql } from 'kysely'
import type { DialectCaps } from '../dialect.ts'
import { bytesToHex } from '../hexBytes.ts'
import type { MigrationProgress } from '../migrateToLatest.ts'
import { packCalldata } from '../packCalldata.ts'
import { type PackedLog, packLogs } from '../packLogs.ts'

/** Rows read and written back at a time. */
const CHUNK = 1000

type Row = {
  chain_id: number | string
  block_number: number | string
  tx_index: number | string
  input: Uint8Array
  logs: Uint8Array
}

/**
 * `transactions.input` and `transactions.logs` take the packed layouts (`packCalldata`,
 * `packLogs`): ABI words lose their runs of zero (or 0xff) bytes and well-known event topics
 * take one byte, where 0022 kept every word whole (in `bench:ingest`'s world about 185 of the
 * 320 bytes a transaction held there). Every row is read in key order, a chunk at a time, and
 * written back through the same functions the indexer writes with, so a migrated row equals
 * a fresh one byte for byte (`migrationFrom0011.test.ts`). PostgreSQL writes a new version of
 * every row (0024, right after it, copies the table into a packed one); SQLite reuses the
 * freed pages (`VACUUM` shrinks the file). It reports the rows done after each chunk (`scry
 * migrate` prints them). Released: never edit (it keeps its own reader of 0022's
 * layout, below; a later layout needs a migration of its own).
 */
export async function up(
  db: Kysely<unknown>,
  caps: DialectCaps,
  progress: MigrationProgress,
): Promise<void> {
  const counted = await sql<{ n: number | string }>`select count(*) as n from transactions`.execute(
    db,
  )
  const total = Number(counted.rows[0]?.n ?? 0)
  let done = 0
  let last: Row | undefined
  for (;;) {
    const after = last
      ? sql`where (chain_id, block_number, tx_index) > (${last.chain_id}, ${last.block_number}, ${last.tx_index})`
      : sql``
    const { rows } = await sql<Row>`
      select chain_id, block_number, tx_index, input, logs from transactions ${after}
      order by chain_id, block_number, tx_index limit ${CHUNK}
    `.execute(db)
    last = rows.at(-1)
    if (!last) return
    const packed = rows
      .filter((row) => row.input.byteLength > 0 || row.logs.byteLength > 0)
      .map((row) => ({
        ...row,
        input: packCalldata(bytesToHex(row.input)),
        logs: packLogs(unpackLogs0022(row.logs)),
      }))
    if (packed.length > 0) await write(db, caps, packed)
    done += rows.length
    progress(done, total)
  }
}

/** Writes the packed columns back, by key. */
async function write(db: Kysely<unknown>, caps: DialectCaps, packed: readonly Row[]) {
  if (caps.name === 'postgres') {
    await sql`
      update transactions t set input = v.input, logs = v.logs
      from unnest(
        ${packed.map((r) => r.chain_id)}::int8[], ${packed.map((r) => r.block_number)}::int8[],
        ${packed.map((r) => r.tx_index)}::int8[], ${packed.map((r) => r.input)}::bytea[],
        ${packed.map((r) => r.logs)}::bytea[]
      ) as v(chain_id, block_number, tx_index, input, logs)
      where t.chain_id = v.chain_id and t.block_number = v.block_number
        and t.tx_index = v.tx_index
    `.execute(db)
    return
  }
  // SQLite: five parameters a row, a few hundred rows a statement.
  for (let start = 0; start < packed.length; start += 200) {
    const values = packed
      .slice(start, start + 200)
      .map((r) => sql`(${r.chain_id}, ${r.block_number}, ${r.tx_index}, ${r.input}, ${r.logs})`)
    await sql`
      with v(chain_id, block_number, tx_index, input, logs) as (values ${sql.join(values)})
      update transactions set input = v.input, logs = v.logs from v
      where transactions.chain_id = v.chain_id and transactions.block_number = v.block_number
        and transactions.tx_index = v.tx_index
    `.execute(db)
  }
}

/** 0022's layout: per log index (u32), address (20), topic count (u8), topics, data length (u32), data. */
function unpackLogs0022(packed: Uint8Array): PackedLog[] {
  const bytes = Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength)
  const hex = (from: number, to: number) => bytesToHex(bytes.subarray(from, to))
  const logs: PackedLog[] = []
  for (let at = 0; at < bytes.byteLength; ) {
    const log_index = bytes.readUInt32BE(at)
    const address = hex(at + 4, at + 24)
    const count = bytes.readUInt8(at + 24)
    at += 25
    const topics: string[] = []
    for (let i = 0; i < count; i++, at += 32) topics.push(hex(at, at + 32))
    const length = bytes.readUInt32BE(at)
    at += 4
    logs.push({ log_index, address, topics, data: hex(at, at + length) })
    at += length
    if (at > bytes.byteLength) throw new Error('0023: stored logs are cut short')
  }
  return logs
}
