// `npm run check:docs`: serves the API (empty SQLite store), loads /docs in Debian's headless
// Chromium (`apt-get install chromium`) and checks that Swagger UI rendered every operation
// from /openapi.json. Saves a screenshot to ./docs-screenshot.png.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApiContext } from '../src/api/createApiContext.ts'
import { createApiServer } from '../src/api/createApiServer.ts'
import { API_ROUTES } from '../src/api/routes/apiRoutes.ts'
import { CHAIN_CATALOGUE } from '../src/chains/catalogue.ts'
import { silentLogger } from '../src/internal/logger.ts'
import { createStore } from '../src/store/createStore.ts'
import { hasChromium, renderInChromium } from '../test/support/renderDocsInChromium.ts'

if (!hasChromium()) {
  console.error('error: /usr/bin/chromium not found; install it with: apt-get install chromium')
  process.exit(1)
}
const dir = mkdtempSync(join(tmpdir(), 'scry-docs-'))
const store = createStore({ url: join(dir, 'docs.sqlite') })
await store.migrate()
const ctx = createApiContext({
  store,
  catalogue: CHAIN_CATALOGUE,
  chains: [],
  logger: silentLogger(),
})
const app = await createApiServer({ ctx, routes: API_ROUTES })
await app.listen({ host: '127.0.0.1', port: 0 })
const { port } = app.server.address() as { port: number }
try {
  const spec = (await (await fetch(`http://127.0.0.1:${port}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>
  }
  const operations = Object.values(spec.paths).reduce((n, p) => n + Object.keys(p).length, 0)
  const dom = await renderInChromium({
    url: `http://127.0.0.1:${port}/docs`,
    screenshot: join(process.cwd(), 'docs-screenshot.png'),
  })
  const rendered = (dom.match(/class="opblock opblock-/g) ?? []).length
  console.log(`openapi.json: ${Object.keys(spec.paths).length} paths, ${operations} operations`)
  console.log(
    `/docs in Chromium: ${rendered} operations rendered; title ${/Scry API/.test(dom) ? 'found' : 'MISSING'}`,
  )
  if (rendered < operations || !/Scry API/.test(dom)) process.exitCode = 1
} finally {
  await app.close()
  await ctx.close()
  await store.close()
  rmSync(dir, { recursive: true, force: true })
}
