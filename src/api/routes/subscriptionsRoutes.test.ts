import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestApi, type TestApi } from '../../../test/support/createTestApi.ts'
import { createTestStore, DIALECTS, type TestStore } from '../../../test/support/createTestStore.ts'
import { localOnlyLookup } from '../../../test/support/localOnlyLookup.ts'
import { testChainConfig } from '../../../test/support/testChain.ts'

const ADDRESS = '0x00000000000000000000000000000000000000AA'

for (const dialect of DIALECTS) {
  describe(`subscriptions API (${dialect})`, () => {
    let t: TestStore
    let api: TestApi
    let otherKey: string
    beforeAll(async () => {
      t = await createTestStore(dialect)
      api = await createTestApi({
        store: t.store,
        chains: [testChainConfig({ chainId: 1, rpc: ['http://127.0.0.1:1'] })],
        overrides: {
          webhookUrls: { allowHttp: false, allowPrivate: false, lookup: localOnlyLookup },
        },
      })
      otherKey = (await api.ctx.accounts.createKey({ name: 'other' })).key
    })
    afterAll(async () => {
      await api?.close()
      await t?.drop()
    })

    const call = async (
      method: string,
      path: string,
      body?: unknown,
      key = api.key,
      raw?: string,
    ) => {
      const res = await fetch(`${api.url}${path}`, {
        method,
        headers: {
          'x-scry-api-key': key,
          ...(body !== undefined || raw ? { 'content-type': 'application/json' } : {}),
        },
        ...(raw ? { body: raw } : body !== undefined ? { body: JSON.stringify(body) } : {}),
      })
      const text = await res.text()
      return {
        status: res.status,
        cost: res.headers.get('x-compute-units-cost'),
        body: text ? JSON.parse(text) : undefined,
      }
    }
    // 1.1.1.1 is public and an IP literal: nothing is looked up or contacted at creation.
    const valid = {
      webhook_url: 'https://1.1.1.1/hook',
      type: 'activities',
      chain_ids: [1],
      addresses: [ADDRESS],
    }

    test('default: create, get, list, update, rotate, delete; 0 CU; the secret only at creation', async () => {
      const created = await call('POST', '/v1/evm/subscriptions', {
        ...valid,
        name: 'mine',
        activity_type: 'transfer',
      })
      expect(created.status).toBe(201)
      expect(created.cost).toBe('0')
      expect(created.body).toMatchObject({
        type: 'activities',
        webhook_url: 'https://1.1.1.1/hook',
        active: true,
        chain_ids: [1],
        addresses: [ADDRESS.toLowerCase()],
        activity_type: ['send', 'receive'],
        name: 'mine',
      })
      expect(created.body.secret).toMatch(/^whsec_[0-9a-f]{48}$/)
      const id = created.body.id
      const got = await call('GET', `/v1/evm/subscriptions/${id}`)
      expect(got.status).toBe(200)
      expect(got.body.secret).toBeUndefined()
      const patched = await call('PATCH', `/v1/evm/subscriptions/${id}`, {
        active: false,
        add_addresses: ['0x00000000000000000000000000000000000000bb'],
        activity_type: null,
      })
      expect(patched.status, JSON.stringify(patched.body)).toBe(200)
      expect(patched.body).toMatchObject({
        active: false,
        addresses: [ADDRESS.toLowerCase(), '0x00000000000000000000000000000000000000bb'],
      })
      expect(patched.body.activity_type).toBeUndefined()
      const rotated = await call('POST', `/v1/evm/subscriptions/${id}/rotate-secret`)
      expect(rotated.body.secret).not.toBe(created.body.secret)
      const second = await call('POST', '/v1/evm/subscriptions', valid)
      const page1 = await call('GET', '/v1/evm/subscriptions?limit=1')
      expect(page1.body.subscriptions.map((s: any) => s.id)).toEqual([id])
      const page2 = await call(
        'GET',
        `/v1/evm/subscriptions?limit=1&offset=${page1.body.next_offset}`,
      )
      expect(page2.body.subscriptions.map((s: any) => s.id)).toEqual([second.body.id])
      expect(page2.body.next_offset).toBeUndefined()
      expect(
        (await call('GET', `/v1/evm/subscriptions/${id}/deliveries?status=failed`)).body,
      ).toEqual({ deliveries: [] })
      expect((await call('DELETE', `/v1/evm/subscriptions/${id}`)).status).toBe(204)
      expect((await call('GET', `/v1/evm/subscriptions/${id}`)).status).toBe(404)
    })

    test('behavior: a body-less request that says Content-Type: application/json (as many clients do on every request) is answered as without it; rotate-secret and redeliver refuse body fields', async () => {
      const json = (method: string, path: string) =>
        fetch(`${api.url}${path}`, {
          method,
          headers: { 'x-scry-api-key': api.key, 'content-type': 'application/json' },
        })
      const { id } = (await call('POST', '/v1/evm/subscriptions', valid)).body
      const rotated = await json('POST', `/v1/evm/subscriptions/${id}/rotate-secret`)
      expect(rotated.status).toBe(200)
      expect(((await rotated.json()) as { secret: string }).secret).toMatch(/\S{16,}/)
      // `{}` is no input too; fields are refused, not ignored (a secret of one's own is not set).
      expect((await call('POST', `/v1/evm/subscriptions/${id}/rotate-secret`, {})).status).toBe(200)
      const own = await call('POST', `/v1/evm/subscriptions/${id}/rotate-secret`, { secret: 'x' })
      expect(own).toMatchObject({
        status: 400,
        body: {
          error: {
            code: 'BAD_REQUEST',
            message: 'Invalid body: rotate-secret takes no body (send none, or {}).',
          },
        },
      })
      const redeliver = `/v1/evm/subscriptions/${id}/deliveries/x/redeliver`
      expect((await call('POST', redeliver, [1])).status).toBe(400)
      expect((await call('POST', redeliver, {})).status).toBe(404)
      expect((await json('DELETE', `/v1/evm/subscriptions/${id}`)).status).toBe(204)
      expect((await json('DELETE', `/v1/evm/subscriptions/${id}`)).status).toBe(404)
      // A verb that needs a body still says what is missing, in the documented shape.
      const empty = await json('POST', '/v1/evm/subscriptions')
      expect(empty.status).toBe(400)
      expect(((await empty.json()) as { error: unknown }).error).toMatchObject({
        code: 'BAD_REQUEST',
      })
    })

    test('behavior: null for a filter the type does not take means no filter (as generated clients send it)', async () => {
      const created = await call('POST', '/v1/evm/subscriptions', {
        ...valid,
        activity_type: 'send',
        transaction_type: null,
        counterparty: null,
      })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      const patched = await call('PATCH', `/v1/evm/subscriptions/${created.body.id}`, {
        transaction_type: null,
        activity_type: null,
      })
      expect(patched.status, JSON.stringify(patched.body)).toBe(200)
      expect(patched.body.activity_type).toBeUndefined()
      expect(patched.body.transaction_type).toBeUndefined()
    })

    test('error: on the published paths, errors name the published fields', async () => {
      const base = { name: 'n', type: 'activities', addresses: [ADDRESS] }
      const bad = await call('POST', '/beta/evm/subscriptions/webhooks', { ...base, url: 'nope' })
      expect(bad.status).toBe(400)
      expect(bad.body.error.message).toBe('Invalid body: url is not a valid URL.')
      const named = await call('POST', '/beta/evm/subscriptions/webhooks', {
        ...base,
        url: 'https://1.1.1.1/hook',
        chain_ids: ['ethereum'],
      })
      expect(named.status).toBe(400)
      expect(named.body.error.message).toBe('Invalid body parameter chain_ids.0: must be integer.')
    })

    test("error: another account's subscription is 404 on every verb", async () => {
      const { body } = await call('POST', '/v1/evm/subscriptions', valid)
      const id = body.id
      const notFound = { error: { code: 'NOT_FOUND', message: `No subscription "${id}".` } }
      expect(await call('GET', `/v1/evm/subscriptions/${id}`, undefined, otherKey)).toMatchObject({
        status: 404,
        body: notFound,
      })
      expect(
        await call('PATCH', `/v1/evm/subscriptions/${id}`, { active: false }, otherKey),
      ).toMatchObject({ status: 404, body: notFound })
      expect(
        await call('DELETE', `/v1/evm/subscriptions/${id}`, undefined, otherKey),
      ).toMatchObject({ status: 404, body: notFound })
      expect(
        await call('POST', `/v1/evm/subscriptions/${id}/rotate-secret`, undefined, otherKey),
      ).toMatchObject({ status: 404 })
      expect(
        await call('GET', `/v1/evm/subscriptions/${id}/deliveries`, undefined, otherKey),
      ).toMatchObject({ status: 404 })
      expect(
        await call(
          'POST',
          `/v1/evm/subscriptions/${id}/deliveries/x/redeliver`,
          undefined,
          otherKey,
        ),
      ).toMatchObject({ status: 404 })
      expect((await call('GET', '/v1/evm/subscriptions', undefined, otherKey)).body).toEqual({
        subscriptions: [],
      })
      // Untouched for its owner.
      expect((await call('GET', `/v1/evm/subscriptions/${id}`)).body.active).toBe(true)
    })

    test('error: hostile and malformed input is a 400 in the documented shape', async () => {
      const cases: [unknown, string][] = [
        [
          { ...valid, webhook_url: 'http://1.1.1.1/hook' },
          'Invalid body: webhook_url must be an https URL.',
        ],
        [
          { ...valid, webhook_url: 'https://127.0.0.1/hook' },
          'Invalid body: webhook_url must not point at a private, loopback or link-local address.',
        ],
        [
          { ...valid, webhook_url: 'https://10.1.2.3/hook' },
          'Invalid body: webhook_url must not point at a private, loopback or link-local address.',
        ],
        [
          { ...valid, webhook_url: 'https://169.254.169.254/latest' },
          'Invalid body: webhook_url must not point at a private, loopback or link-local address.',
        ],
        [
          { ...valid, webhook_url: 'https://[::ffff:127.0.0.1]/' },
          'Invalid body: webhook_url must not point at a private, loopback or link-local address.',
        ],
        [
          { ...valid, webhook_url: 'https://[fe80::1]/' },
          'Invalid body: webhook_url must not point at a private, loopback or link-local address.',
        ],
        [
          { ...valid, webhook_url: 'https://localhost/hook' },
          'Invalid body: webhook_url must not point at a private, loopback or link-local address.',
        ],
        [
          { ...valid, webhook_url: 'https://nowhere.invalid/hook' },
          'Invalid body: The host of webhook_url (nowhere.invalid) does not resolve.',
        ],
        [
          { ...valid, webhook_url: 'https://u:p@1.1.1.1/' },
          'Invalid body: webhook_url must not contain credentials.',
        ],
        [
          { ...valid, webhook_url: 'https://1.1.1.1:0/hook' },
          'Invalid body: webhook_url must not name port 0.',
        ],
        [{ ...valid, webhook_url: 'not a url' }, 'Invalid body: webhook_url is not a valid URL.'],
        [
          { ...valid, type: 'swaps' },
          'Invalid body: type must be one of balances, activities, transactions; got "swaps".',
        ],
        [
          { ...valid, chain_ids: [8453] },
          'Invalid body: chain_ids: 8453 is not indexed by this instance.',
        ],
        [{ ...valid, chain_ids: [] }, 'Invalid body: chain_ids must not be empty.'],
        [{ ...valid, addresses: ['0x12'] }, 'Invalid body: addresses: "0x12" is not an address.'],
        [{ ...valid, addresses: [] }, 'Invalid body: addresses must not be empty.'],
        [
          { ...valid, transaction_type: 'sender' },
          'Invalid body: transaction_type does not apply to activities subscriptions (they take activity_type, asset_type, token_address).',
        ],
        [
          { ...valid, activity_type: 'steal' },
          'Invalid body: activity_type: "steal" is not one of send, receive, mint, burn, swap, approve, call, transfer.',
        ],
        [
          { ...valid, type: 'balances', asset_type: ['erc721'] },
          'Invalid body: asset_type: "erc721" is not one of native, erc20.',
        ],
        [{ ...valid, chain_ids: ['one'] }, 'Invalid body parameter chain_ids.0: must be integer.'],
        // A JSON body is checked as sent, not coerced to the schema's types.
        [{ ...valid, chain_ids: ['1'] }, 'Invalid body parameter chain_ids.0: must be integer.'],
        [{ ...valid, chain_ids: null }, 'Invalid body parameter chain_ids: must be array.'],
        [{ ...valid, addresses: null }, 'Invalid body parameter addresses: must be array.'],
        [{ ...valid, name: 123 }, 'Invalid body parameter name: must be string.'],
        [{ ...valid, extra: 1 }, 'Invalid body: extra is not a field it takes.'],
        [
          { type: 'activities' },
          "Invalid body parameter webhook_url: must have required property 'webhook_url'.",
        ],
      ]
      for (const [body, message] of cases) {
        const res = await call('POST', '/v1/evm/subscriptions', body)
        expect({ status: res.status, body: res.body }, JSON.stringify(body)).toEqual({
          status: 400,
          body: { error: { code: 'BAD_REQUEST', message } },
        })
      }
      // Prototype poisoning is refused by the JSON parser, as is JSON that does not parse.
      for (const raw of ['{"__proto__":{"admin":true},"type":"activities"}', '{"type":']) {
        const res = await call('POST', '/v1/evm/subscriptions', undefined, api.key, raw)
        expect([res.status, res.body.error.code], raw).toEqual([400, 'BAD_REQUEST'])
      }
      const { body } = await call('POST', '/v1/evm/subscriptions', valid)
      expect(await call('PATCH', `/v1/evm/subscriptions/${body.id}`, { type: 'balances' })).toEqual(
        {
          status: 400,
          cost: null,
          body: {
            error: {
              code: 'BAD_REQUEST',
              message: 'Invalid body: type cannot be changed; create a new subscription.',
            },
          },
        },
      )
      expect(
        (await call('PATCH', `/v1/evm/subscriptions/${body.id}`, { remove_addresses: [ADDRESS] }))
          .body.error.message,
      ).toBe('Invalid body: addresses must not be empty.')
      for (const [patch, message] of [
        [{ active: null }, 'Invalid body parameter active: must be boolean.'],
        [{ active: 'true' }, 'Invalid body parameter active: must be boolean.'],
        [{ active: 0 }, 'Invalid body parameter active: must be boolean.'],
      ] as const) {
        const res = await call('PATCH', `/v1/evm/subscriptions/${body.id}`, patch)
        expect([res.status, res.body.error.message], JSON.stringify(patch)).toEqual([400, message])
      }
      expect((await call('GET', `/v1/evm/subscriptions/${body.id}`)).body.active).toBe(true)
      // A NUL character (PostgreSQL text cannot hold one): a 400 wherever it comes, never a 500.
      const nul = 'Invalid body: a string holds a NUL character (\\u0000); remove it.'
      for (const [method, path, sent] of [
        ['POST', '/v1/evm/subscriptions', { ...valid, name: 'a\u0000b' }],
        ['POST', '/beta/evm/subscriptions/webhooks', { ...valid, name: '\u0000' }],
        ['PATCH', `/v1/evm/subscriptions/${body.id}`, { name: 'q\u0000' }],
        ['PATCH', `/v1/evm/subscriptions/${body.id}`, { 'a\u0000': 1 }],
      ] as const) {
        const res = await call(method, path, sent)
        expect([res.status, res.body.error], `${method} ${path}`).toEqual([
          400,
          { code: 'BAD_REQUEST', message: nul },
        ])
      }
      for (const [method, path] of [
        ['GET', '/v1/evm/subscriptions/%00'],
        ['GET', '/v1/evm/subscriptions/a%00'],
        ['PATCH', '/v1/evm/subscriptions/%00'],
        ['DELETE', '/v1/evm/subscriptions/%00'],
        ['POST', '/v1/evm/subscriptions/%00/rotate-secret'],
        ['GET', '/v1/evm/subscriptions/%00/deliveries'],
        ['POST', `/v1/evm/subscriptions/${body.id}/deliveries/%00/redeliver`],
        ['GET', '/beta/evm/subscriptions/webhooks/%00'],
        ['DELETE', '/beta/evm/subscriptions/webhooks/%00'],
      ] as const) {
        const res = await call(method, path, method === 'PATCH' ? { name: 'x' } : undefined)
        expect([res.status, res.body.error], `${method} ${path}`).toEqual([
          400,
          { code: 'BAD_REQUEST', message: 'The path holds a NUL character (%00); remove it.' },
        ])
      }
      // A single chain id or address may stand alone, not in an array.
      const single = await call('POST', '/v1/evm/subscriptions', {
        ...valid,
        chain_ids: 1,
        addresses: ADDRESS,
      })
      expect(single.status).toBe(201)
      expect(single.body).toMatchObject({ chain_ids: [1], addresses: [ADDRESS.toLowerCase()] })
      expect(
        (await call('POST', '/v1/evm/subscriptions', undefined, api.key, '{"webhook_url":')).status,
      ).toBe(400)
      const huge = JSON.stringify({ ...valid, addresses: Array(20_000).fill(ADDRESS) })
      expect(await call('POST', '/v1/evm/subscriptions', undefined, api.key, huge)).toMatchObject({
        status: 413,
        body: { error: { code: 'PAYLOAD_TOO_LARGE' } },
      })
      // A choice names what it allows.
      const deliveries = await call(
        'GET',
        `/v1/evm/subscriptions/${body.id}/deliveries?status=bogus`,
      )
      expect(deliveries.body.error.message).toMatch(
        /^Invalid querystring parameter status: must be one of pending, /,
      )
      expect((await call('GET', '/v1/evm/subscriptions', undefined, 'bogus')).status).toBe(401)
    })
  })
}
