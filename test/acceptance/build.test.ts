import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { BUILD_STAMP, isBuildFresh } from '../../bin/isBuildFresh.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A checkout with src/a/b.ts and its test, every time at `at` seconds. */
function checkout(at: number): string {
  const root = mkdtempSync(join(tmpdir(), 'scry-build-'))
  dirs.push(root)
  mkdirSync(join(root, 'src', 'a'), { recursive: true })
  for (const file of ['src/a/b.ts', 'src/a/b.test.ts']) writeFileSync(join(root, file), '')
  for (const path of ['src/a/b.ts', 'src/a/b.test.ts', 'src/a', 'src']) setTime(root, path, at)
  return root
}

function setTime(root: string, path: string, at: number): void {
  utimesSync(join(root, path), at, at)
}

function build(root: string, at: number): void {
  mkdirSync(join(root, 'dist'), { recursive: true })
  writeFileSync(join(root, 'dist', BUILD_STAMP), '')
  setTime(root, `dist/${BUILD_STAMP}`, at)
}

describe('bin/scry.js picks the compiled build only while it is fresh', () => {
  it('has no build: the sources run', () => {
    expect(isBuildFresh(checkout(1000))).toBe(false)
  })

  it('built after every source: the build runs', () => {
    const root = checkout(1000)
    build(root, 2000)
    expect(isBuildFresh(root)).toBe(true)
  })

  it('a source edited after the build: the sources run', () => {
    const root = checkout(1000)
    build(root, 2000)
    setTime(root, 'src/a/b.ts', 3000)
    expect(isBuildFresh(root)).toBe(false)
  })

  it('a test edited after the build does not count', () => {
    const root = checkout(1000)
    build(root, 2000)
    setTime(root, 'src/a/b.test.ts', 3000)
    expect(isBuildFresh(root)).toBe(true)
  })

  it('a file added or removed after the build (its directory changed): the sources run', () => {
    const root = checkout(1000)
    build(root, 2000)
    setTime(root, 'src/a', 3000)
    expect(isBuildFresh(root)).toBe(false)
  })

  // `npm install` runs `prepare` (scripts/build.ts), so on CI every test that spawns
  // bin/scry.js runs the compiled build; a checkout mid-edit runs the sources.
  it.runIf(process.env.CI === 'true')(
    'on CI, npm install left a fresh build of this checkout',
    () => {
      expect(isBuildFresh(ROOT)).toBe(true)
    },
  )
})
