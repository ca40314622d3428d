import { describe, expect, test } from 'vitest'
import { createTestApi } from '../support/createTestApi.ts'
import { createTestStore } from '../support/createTestStore.ts'
import { hasChromium, renderInChromium } from '../support/renderDocsInChromium.ts'

// /openapi.json is generated from the route schemas; /docs renders it (Swagger UI). The render
// check needs Debian's chromium (`apt-get install chromium`) and is skipped without it.
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
        '/v1/status',
      ]) {
        expect(paths).toContain(path)
      }
    } finally {
      await api.close()
      await t.drop()
    }
  })

  test.skipIf(!hasChromium())(
    'behavior: /docs renders every operation in headless Chromium',
    async () => {
      const t = await createTestStore('sqlite')
      const api = await createTestApi({ store: t.store, chains: [] })
      try {
        const spec = await api.get('/openapi.json', { key: null })
        const dom = await renderInChromium({ url: `${api.url}/docs` })
        expect(dom).toContain('Scry API')
        expect((dom.match(/class="opblock opblock-get/g) ?? []).length).toBe(
          Object.keys(spec.body.paths).length,
        )
      } finally {
        await api.close()
        await t.drop()
      }
    },
  )
})
