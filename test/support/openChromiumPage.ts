import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import WebSocket from 'ws'
import { CHROMIUM } from './renderDocsInChromium.ts'

/** A page in headless Chromium, driven over the DevTools protocol. */
export type ChromiumPage = {
  /** Runs an expression in the page and returns its (JSON) value; awaits promises. */
  evaluate<T>(expression: string): Promise<T>
  /** Clicks the middle of the element `element` (an expression) with the mouse, as a person. */
  click(element: string): Promise<void>
  /** Polls `expression` until it is truthy; returns its value (`true` for an element). */
  waitFor<T>(expression: string, what: string, timeoutMs?: number): Promise<T>
  close(): Promise<void>
}

/**
 * Opens `url` in Debian's headless Chromium with remote debugging on a free loopback port and
 * connects to the page over the DevTools protocol (WebSocket, `ws`), so a test can click and
 * read what a person would. Flags keep Chromium off the network.
 */
export async function openChromiumPage(url: string): Promise<ChromiumPage> {
  const profile = mkdtempSync(join(tmpdir(), 'scry-chromium-'))
  const child = spawn(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--remote-debugging-address=127.0.0.1',
      '--remote-debugging-port=0',
      '--window-size=1280,1600',
      `--user-data-dir=${profile}`,
      url,
    ],
    // Its own process group: closing ends the renderers and helpers too.
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  )
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r))
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL')
      await exited
    }
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
  }
  try {
    const browserWs = await devToolsUrl(child)
    const port = new URL(browserWs).port
    const pageWs = await pageTarget(port, url)
    const socket = new WebSocket(pageWs)
    await new Promise((resolve, reject) => {
      socket.once('open', resolve)
      socket.once('error', reject)
    })
    let nextId = 1
    const pending = new Map<number, (message: CdpMessage) => void>()
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as CdpMessage
      if (message.id !== undefined) pending.get(message.id)?.(message)
    })
    const send = async (method: string, params: object): Promise<CdpMessage> => {
      const id = nextId++
      const answer = await new Promise<CdpMessage>((resolve) => {
        pending.set(id, resolve)
        socket.send(JSON.stringify({ id, method, params }))
      })
      pending.delete(id)
      if (answer.error) throw new Error(`${method} failed: ${JSON.stringify(answer.error)}`)
      return answer
    }
    const evaluate = async <T>(expression: string): Promise<T> => {
      const answer = await send('Runtime.evaluate', {
        expression,
        awaitPromise: true,
        returnByValue: true,
      })
      if (answer.result?.exceptionDetails) {
        throw new Error(`page error: ${JSON.stringify(answer.result.exceptionDetails)}`)
      }
      return answer.result?.result?.value as T
    }
    return {
      evaluate,
      async click(element) {
        // Scrolled into view, then measured once the page has painted it there.
        const box = await evaluate<{ x: number; y: number } | null>(`(async () => {
          const e = ${element}
          if (!e) return null
          e.scrollIntoView({ block: 'center', behavior: 'instant' })
          await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
          const r = e.getBoundingClientRect()
          return { x: r.left + r.width / 2, y: r.top + r.height / 2 }
        })()`)
        if (!box) throw new Error(`nothing to click: ${element.slice(0, 200)}`)
        for (const type of ['mousePressed', 'mouseReleased']) {
          await send('Input.dispatchMouseEvent', { type, ...box, button: 'left', clickCount: 1 })
        }
      },
      async waitFor<T>(expression: string, what: string, timeoutMs = 20_000) {
        const until = Date.now() + timeoutMs
        for (;;) {
          // An element does not survive the trip as a value: it comes back as `true`.
          const value = await evaluate<T>(
            `(() => { const v = (${expression}); return v instanceof Node ? true : v })()`,
          )
          if (value) return value
          if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
          await new Promise((r) => setTimeout(r, 100))
        }
      },
      async close() {
        socket.close()
        await stop()
      },
    }
  } catch (error) {
    await stop()
    throw error
  }
}

type CdpMessage = {
  id?: number
  error?: unknown
  result?: { result?: { value?: unknown }; exceptionDetails?: unknown }
}

/** Chromium prints `DevTools listening on ws://…` on stderr once it listens. */
function devToolsUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = ''
    const timer = setTimeout(() => reject(new Error(`Chromium did not start: ${text}`)), 30_000)
    child.stderr?.on('data', (chunk) => {
      text += String(chunk)
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(text)
      if (match?.[1]) {
        clearTimeout(timer)
        resolve(match[1])
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`Chromium exited (${code}): ${text}`))
    })
  })
}

async function pageTarget(port: string, url: string): Promise<string> {
  const until = Date.now() + 10_000
  for (;;) {
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
      type: string
      url: string
      webSocketDebuggerUrl: string
    }[]
    const page = targets.find((t) => t.type === 'page' && t.url.startsWith(url))
    if (page) return page.webSocketDebuggerUrl
    if (Date.now() > until) throw new Error(`no page target for ${url}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}
