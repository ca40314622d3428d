#!/usr/bin/env node
// Runs the JavaScript that `npm install` compiled into dist/ (scripts/build.ts) while it is
// newer than every source; otherwise (a source edited since, or no build) the TypeScript
// sources themselves through tsx's loader, which costs about 70 MiB more per process.
import { fileURLToPath } from 'node:url'
import { isBuildFresh } from './isBuildFresh.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const entry = isBuildFresh(root)
  ? '../dist/cli/main.js'
  : await import('tsx/esm/api').then(({ register }) => {
      register()
      return '../src/cli/main.ts'
    })
const { main } = await import(entry)
process.exitCode = await main(process.argv.slice(2))
