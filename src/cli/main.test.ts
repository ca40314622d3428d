import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect, test } from 'vitest'
import { main } from './main.ts'

async function run(argv: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await main(argv, { out: (text) => out.push(text), err: (text) => err.push(text) })
  return { code, out: out.join(''), err: err.join('') }
}

test('default', async () => {
  const { code, out } = await run(['--help'])
  expect(code).toBe(0)
  expect(out).toContain('Usage: scry [options] [command]')
  for (const command of ['dev', 'start', 'migrate', 'status']) expect(out).toContain(command)
})

test('args: --help of a command', async () => {
  const { code, out } = await run(['start', '--help'])
  expect(code).toBe(0)
  expect(out).toContain('--rpc <chainId=url>')
  expect(out).toContain('--finality-depth <chainId=n>')
  const dev = await run(['dev', '--help'])
  expect(dev.out).toContain('--chains <ids>')
})

test('args: --version', async () => {
  const { code, out } = await run(['--version'])
  expect(code).toBe(0)
  expect(out).toMatch(/^\d+\.\d+\.\d+\n$/)
})

test('error: bad --rpc', async () => {
  const { code, err } = await run(['start', '--rpc', 'abc'])
  expect(code).toBe(1)
  expect(err).toMatchInlineSnapshot(`
    "error: Invalid configuration:
      - --rpc: expected <chainId>=<url>, got "abc"
    "
  `)
})

test('error: a flag a command does not use is unknown to it, not ignored', async () => {
  // `scry dev` makes its own chains and database; migrate and status run no server.
  for (const [command, flag] of [
    ['dev', '--database'],
    ['dev', '--rpc'],
    ['dev', '--finality-depth'],
    ['migrate', '--port'],
    ['migrate', '--rpc'],
    ['status', '--log-level'],
    ['status', '--batch-size'],
  ] as const) {
    const help = await run([command, '--help'])
    expect(help.out, `${command} --help`).not.toContain(`${flag} `)
    const { code, err } = await run([command, flag, 'x'])
    expect(code).toBe(1)
    expect(err).toContain(`error: unknown option '${flag}'`)
  }
  const status = await run(['status', '--help'])
  expect(status.out).toContain('--rpc <chainId=url>')
  expect(status.out).toContain('--database <url|path>')
})

test('error: several config problems at once, no secrets', async () => {
  const { code, err } = await run([
    'start',
    '--port',
    'http',
    '--rpc',
    '8453=ftp://user:pw@rpc.example/KEY',
    '--finality-depth',
    '8453=deep',
  ])
  expect(code).toBe(1)
  expect(err).toMatchInlineSnapshot(`
    "error: Invalid configuration:
      - --port: expected an integer from 0 to 65535, got "http"
      - --rpc (chain 8453): expected http(s) or ws(s) URLs, got ftp://rpc.example
      - --finality-depth (chain 8453): expected an integer ≥ 0, got "deep"
    "
  `)
  expect(err).not.toContain('KEY')
})

test('error: dev --chains with a chain name', async () => {
  const { code, err } = await run(['dev', '--chains', '1,base,x'])
  expect(code).toBe(1)
  expect(err).toMatchInlineSnapshot(`
    "error: Invalid configuration:
      - --chains: "base" is a chain name; use its id 8453
      - --chains: expected comma-separated chain ids (e.g. 1,8453), got "x"
    "
  `)
})

test('error: unknown command and option', async () => {
  const command = await run(['serve'])
  expect(command.code).toBe(1)
  expect(command.err).toMatchInlineSnapshot(`
    "error: unknown command 'serve'
    (run with --help for usage)
    "
  `)
  const option = await run(['start', '--prot', '1'])
  expect(option.code).toBe(1)
  expect(option.err).toMatchInlineSnapshot(`
    "error: unknown option '--prot'
    (Did you mean --port?)
    (run with --help for usage)
    "
  `)
})

test('behavior: bin/scry.js exits 1 with the message on stderr', async () => {
  const bin = fileURLToPath(new URL('../../bin/scry.js', import.meta.url))
  const error = await promisify(execFile)(process.execPath, [bin, 'start', '--rpc', 'abc'], {
    env: { PATH: process.env.PATH },
  }).catch((e: { code: number; stderr: string; stdout: string }) => e)
  expect('code' in error && error.code).toBe(1)
  expect(error.stderr).toMatchInlineSnapshot(`
    "error: Invalid configuration:
      - --rpc: expected <chainId>=<url>, got "abc"
    "
  `)
})
