import { expect, test } from 'vitest'
import { listenForShutdown } from './listenForShutdown.ts'

// The test runner has signal handlers of its own: call ours directly instead of emitting.
function added(name: 'SIGINT' | 'SIGTERM', before: readonly unknown[]): () => void {
  const listener = process.listeners(name).find((l) => !before.includes(l))
  if (!listener) throw new Error(`no ${name} listener added`)
  return listener as () => void
}

test('default', () => {
  const before = process.listeners('SIGINT')
  const logs: string[] = []
  const exits: number[] = []
  const shutdown = listenForShutdown({ log: (t) => logs.push(t), exit: (code) => exits.push(code) })
  const onSigint = added('SIGINT', before)

  expect(shutdown.signal.aborted).toBe(false)
  onSigint()
  expect(shutdown.signal.aborted).toBe(true)
  expect(exits).toEqual([])
  onSigint()
  expect(exits).toEqual([130])
  expect(logs).toMatchInlineSnapshot(`
    [
      "received SIGINT; shutting down (send it again to exit at once)
    ",
      "received SIGINT again; exiting now
    ",
    ]
  `)

  shutdown.dispose()
  expect(process.listeners('SIGINT')).toEqual(before)
})

test('behavior: SIGTERM', () => {
  const before = process.listeners('SIGTERM')
  const exits: number[] = []
  const shutdown = listenForShutdown({ log: () => {}, exit: (code) => exits.push(code) })
  const onSigterm = added('SIGTERM', before)
  onSigterm()
  onSigterm()
  expect(shutdown.signal.reason).toMatchInlineSnapshot(`[Error: received SIGTERM]`)
  expect(exits).toEqual([143])
  shutdown.dispose()
  expect(process.listeners('SIGTERM')).toEqual(before)
})
