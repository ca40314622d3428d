#!/usr/bin/env node
// Runs the JavaScript that `npm install` compiled into dist/ (scripts/build.ts) while it is
// newer than every source; otherwise (a source edited since, or no build) the TypeScript
// sources themselves through tsx's loader, which costs about 70 MiB more per process.
import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { isBuildFresh } from './isBuildFresh.js'

// V8 lets the heap grow to up to four times what its last full collection kept before it
// collects again. Indexing allocates ~1.7 GB per 26,000 transactions, nearly all short-lived,
// so a backfill of 200,000 transfers peaked at 416–439 MiB of RSS; three times keeps it at
// 362–380 MiB for no CPU cost that could be measured, twice at ~283 for 15–20 % more
// (docs/deploy.md, "Memory").
// `scry dev` (small demo chains: the CPU does not matter) takes twice: ten minutes after start
// it held 393–414 MiB at three, 334 at twice.
// `node --heap-growing-percent=<n> bin/scry.js …` sets another factor (1 + n/100).
if (!process.execArgv.some((arg) => /^--heap[-_]growing[-_]percent\b/.test(arg))) {
  setFlagsFromString(`--heap-growing-percent=${process.argv[2] === 'dev' ? 100 : 200}`)
}

const root = fileURLToPath(new URL('..', import.meta.url))
const entry = isBuildFresh(root)
  ? '../dist/cli/main.js'
  : await import('tsx/esm/api').then(({ register }) => {
      register()
      return '../src/cli/main.ts'
    })
const { main } = await import(entry)
process.exitCode = await main(process.argv.slice(2))
