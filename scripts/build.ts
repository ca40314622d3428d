// `npm run build` (and `prepare`, so every `npm install` of the checkout runs it): compiles
// src/ to JavaScript in dist/ without type checking (`npm run typecheck` does that), copies
// the files src/ reads at run time (Solidity sources, JSON) beside it, and stamps dist/ with
// the time the build started. bin/scry.js runs dist/ while no source is newer than the stamp.
// Compiled, a `scry start` process holds about 70 MiB less than through tsx's loader.
import { execFileSync } from 'node:child_process'
import { cpSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { BUILD_STAMP } from '../bin/isBuildFresh.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const dist = `${root}dist`
const started = new Date()
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')

rmSync(dist, { recursive: true, force: true })
execFileSync(process.execPath, [tsc, '-p', `${root}tsconfig.build.json`], { stdio: 'inherit' })
cpSync(`${root}src`, dist, { recursive: true, filter: (from) => !from.endsWith('.ts') })
const stamp = `${dist}/${BUILD_STAMP}`
writeFileSync(stamp, `${started.toISOString()}\n`)
utimesSync(stamp, started, started)
