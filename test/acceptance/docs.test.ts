import { describe, expect, test } from 'vitest'
import { createTestApi } from '../support/createTestApi.ts'
import { createTestStore } from '../support/createTestStore.ts'
import { openChromiumPage } from '../support/openChromiumPage.ts'
import { hasChromium } from '../support/renderDocsInChromium.ts'

// /openapi.json is generated from the route schemas; /docs renders it (Swagger UI), checked in
// Debian's chromium as a person uses it.
describe('API docs', () => {
  test('default: /openapi.json lists every route', async () => {
    const t = await createTestStore('sqlite')
    const api = await createTestApi({ store: t.store, chains: [] })
    try {
      const spec = await api.get('/openapi.json', { key: null })
      expect(spec.status).toBe(200)
      expect(spec.body.openapi).toMatch(/^3\./)
      const paths = Object.keys(spec.body.paths)
      for (const path of [
        '/v1/evm/balances/{address}',
        '/v1/evm/balances/{address}/token/{token_address}',
        '/v1/evm/balances/{address}/stablecoins',
        '/v1/evm/activity/{address}',
        '/v1/evm/transactions/{address}',
        '/v1/evm/collectibles/{address}',
        '/v1/evm/token-info/{address}',
        '/v1/evm/token-holders/{chain_id}/{address}',
        '/v1/evm/supported-chains',
        '/beta/evm/subscriptions/webhooks/{webhookId}/addresses',
        '/v1/status',
      ]) {
        expect(paths).toContain(path)
      }
    } finally {
      await api.close()
      await t.drop()
    }
  })

  // CI installs Debian's chromium (.ci/run), so there the test always runs; a checkout
  // without it skips this one test.
  test.skipIf(!hasChromium() && !process.env.CI)(
    'behavior: /docs in Chromium lists every endpoint and tries a request',
    async () => {
      const t = await createTestStore('sqlite')
      const api = await createTestApi({ store: t.store, chains: [] })
      const page = await openChromiumPage(`${api.url}/docs`)
      try {
        const spec = await api.get('/openapi.json', { key: null })
        const paths = Object.keys(spec.body.paths)
        const operations = Object.values(spec.body.paths).flatMap((p) => Object.keys(p as object))
        await page.waitFor(
          `document.querySelectorAll('.opblock').length === ${operations.length}`,
          'every operation to render',
        )
        expect(await page.evaluate<string>('document.title')).toBe('Swagger UI')
        expect(
          await page.evaluate<string>(`document.querySelector('.info .title').textContent`),
        ).toContain('Scry API')
        // The paths a person reads on the page (Swagger UI puts zero-width spaces after slashes).
        const shown = await page.evaluate<string[]>(
          `[...document.querySelectorAll('.opblock-summary-path')].map((e) => e.textContent.replace(/\u200b/g, ''))`,
        )
        expect(new Set(shown)).toEqual(new Set(paths))

        // Try a request: open the supported-chains operation, "Try it out", "Execute".
        const block = `[...document.querySelectorAll('.opblock')].find((b) => b.querySelector('.opblock-summary-path').textContent.replace(/\u200b/g, '') === '/v1/evm/supported-chains')`
        await page.click(`${block}.querySelector('.opblock-summary-control')`)
        await page.waitFor(`${block}.querySelector('.try-out__btn')`, 'the Try it out button')
        await page.click(`${block}.querySelector('.try-out__btn')`)
        await page.waitFor(`${block}.querySelector('.btn.execute')`, 'the Execute button')
        await page.click(`${block}.querySelector('.btn.execute')`)
        const status = await page.waitFor<string>(
          `${block}.querySelector('.live-responses-table tr.response .response-col_status')?.textContent.trim()`,
          'the response',
        )
        expect(status).toBe('200')
        const body = await page.evaluate<string>(
          `${block}.querySelector('.live-responses-table tr.response .response-col_description pre').textContent`,
        )
        expect(JSON.parse(body)).toEqual({ chains: [] })
      } finally {
        await page.close()
        await api.close()
        await t.drop()
      }
    },
  )
})
