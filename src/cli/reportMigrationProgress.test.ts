import { describe, expect, test } from 'vitest'
import { type MigrationReport, reportMigrationProgress } from './reportMigrationProgress.ts'

describe('reportMigrationProgress', () => {
  test('default: one line every interval, and the last', () => {
    let clock = 0
    const lines: string[] = []
    const fields: MigrationReport[] = []
    const onProgress = reportMigrationProgress(
      (line, f) => {
        lines.push(line)
        fields.push(f)
      },
      { everyMs: 5000, now: () => clock },
    )
    for (let done = 1000; done <= 10_000; done += 1000) {
      clock += 1500
      onProgress('0023_packed_calldata_and_logs', done, 10_000)
    }
    expect(lines).toEqual([
      '0023_packed_calldata_and_logs: 4,000 of 10,000 rows (40 %)',
      '0023_packed_calldata_and_logs: 8,000 of 10,000 rows (80 %)',
      '0023_packed_calldata_and_logs: 10,000 of 10,000 rows (100 %)',
    ])
    expect(fields.at(-1)).toEqual({
      migration: '0023_packed_calldata_and_logs',
      done: 10_000,
      total: 10_000,
    })
  })

  test('behavior: without a total, rows done alone', () => {
    let clock = 0
    const lines: string[] = []
    const onProgress = reportMigrationProgress((line) => lines.push(line), { now: () => clock })
    clock = 6000
    onProgress('m', 2500, undefined)
    expect(lines).toEqual(['m: 2,500 rows'])
  })
})
