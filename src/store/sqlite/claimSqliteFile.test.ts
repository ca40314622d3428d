import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { ConfigError } from '../../internal/errors.ts'
import { claimSqliteFile } from './claimSqliteFile.ts'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'scry-claim-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('claimSqliteFile', () => {
  test('error: a second claim on the same file is refused until the first is released', () => {
    const file = join(dir, 'scry.sqlite')
    const first = claimSqliteFile(file, '`scry start`')
    expect(() => claimSqliteFile(file, '`scry start`')).toThrow(ConfigError)
    expect(() => claimSqliteFile(file, '`scry start`')).toThrow(
      `Another Scry process is using the database ${file}; \`scry start\` was refused.`,
    )
    // Another file is another claim.
    claimSqliteFile(join(dir, 'other.sqlite'), 'x').release()
    first.release()
    first.release()
    claimSqliteFile(file, '`scry start`').release()
  })

  test('behavior: a process killed while it holds the claim leaves none behind', async () => {
    const file = join(dir, 'scry.sqlite')
    // A child process takes the claim, says so, and is killed without a chance to let go.
    const module = new URL('./claimSqliteFile.ts', import.meta.url).href
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { claimSqliteFile } = await import(${JSON.stringify(module)});
         claimSqliteFile(${JSON.stringify(file)}, 'a start'); console.log('held');
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()))
    expect(() => claimSqliteFile(file, 'a start')).toThrow(/Another Scry process/)
    const gone = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGKILL')
    await gone
    claimSqliteFile(file, 'a start').release()
  })

  test('edge: an in-memory database needs no claim', () => {
    claimSqliteFile(':memory:', 'x')
    claimSqliteFile(':memory:', 'x').release()
  })
})
