import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestStore, type TestStore } from '../../test/support/createTestStore.ts'
import { resolveConfig } from '../config/resolveConfig.ts'
import { ConfigError } from '../internal/errors.ts'
import { silentLogger } from '../internal/logger.ts'
import { startApiServer } from './startApiServer.ts'

// HTTPS as decisions.md says: TLS with a certificate; plain HTTP only on loopback.
describe('startApiServer', () => {
  let dir: string
  let t: TestStore
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scry-tls-'))
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    )
    t = await createTestStore('sqlite')
  })
  afterAll(async () => {
    await t?.drop()
    rmSync(dir, { recursive: true, force: true })
  })
  /** The config of a server on any port with this certificate and key (files in `dir`). */
  const withTls = (cert: string, key: string) =>
    resolveConfig({
      flags: { port: '0', tlsCert: join(dir, cert), tlsKey: join(dir, key), dataDir: dir },
      env: {},
      cwd: dir,
    })

  test('default: serves HTTPS with the configured certificate', async () => {
    const config = await withTls('cert.pem', 'key.pem')
    const api = await startApiServer({ config, store: t.store, logger: silentLogger() })
    try {
      expect(api.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
      const body = await new Promise<string>((resolve, reject) => {
        request(`${api.url}/health`, { rejectUnauthorized: false }, (res) => {
          let text = ''
          res.on('data', (d) => {
            text += d
          })
          res.on('end', () => resolve(`${res.statusCode} ${text}`))
        })
          .on('error', reject)
          .end()
      })
      expect(body).toBe('200 {"status":"ok"}')
    } finally {
      await api.close()
    }
  })

  test('error: plain HTTP on a non-loopback bind answers HTTPS_REQUIRED', async () => {
    const config = await resolveConfig({
      flags: { port: '0', host: '0.0.0.0', dataDir: dir },
      env: {},
      cwd: dir,
    })
    // What the process logs: the refusal is said at start, not found by the first request.
    const lines: string[] = []
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) })
    const api = await startApiServer({ config, store: t.store, logger })
    try {
      expect(lines.map((l) => JSON.parse(l).msg)).toEqual([
        'The API listens beyond this machine without TLS: every request, /health too, will be refused (HTTPS_REQUIRED, decisions.md). Serve TLS (--tls-cert, --tls-key) or run behind a proxy that terminates it (--trust-proxy).',
      ])
      const port = new URL(api.url).port
      const res = await fetch(`http://127.0.0.1:${port}/health`)
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({
        error: { message: 'This service only accepts HTTPS requests.', code: 'HTTPS_REQUIRED' },
      })
    } finally {
      await api.close()
    }
  })

  test('error: a certificate and key given the wrong way round are a clear configuration error', async () => {
    const config = await withTls('key.pem', 'cert.pem')
    const started = startApiServer({ config, store: t.store, logger: silentLogger() })
    await expect(started).rejects.toBeInstanceOf(ConfigError)
    await expect(started).rejects.toThrowError(/^The TLS certificate and key do not load: /)
    await expect(started).rejects.toThrowError(/were they swapped\?/)
  })

  test('error: a missing certificate file is a clear configuration error', async () => {
    const config = await withTls('nope.pem', 'key.pem')
    await expect(
      startApiServer({ config, store: t.store, logger: silentLogger() }),
    ).rejects.toThrowError(/^Cannot read the TLS certificate or key\./)
  })
})
