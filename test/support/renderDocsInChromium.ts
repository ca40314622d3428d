import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

export const CHROMIUM = '/usr/bin/chromium'
export const hasChromium = () => existsSync(CHROMIUM)

/**
 * Loads a page in Debian's headless Chromium and returns the DOM after scripts ran
 * (`--dump-dom`), optionally saving a screenshot. Flags keep Chromium off the network.
 */
export async function renderInChromium({
  url,
  screenshot,
  budgetMs = 8_000,
}: {
  url: string
  screenshot?: string
  budgetMs?: number
}): Promise<string> {
  const profile = mkdtempSync(join(tmpdir(), 'scry-chromium-'))
  const flags = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    `--user-data-dir=${profile}`,
    `--virtual-time-budget=${budgetMs}`,
  ]
  try {
    if (screenshot) {
      await promisify(execFile)(
        CHROMIUM,
        [...flags, `--screenshot=${screenshot}`, '--window-size=1280,1600', url],
        {
          timeout: 60_000,
        },
      )
    }
    const { stdout } = await promisify(execFile)(CHROMIUM, [...flags, '--dump-dom', url], {
      timeout: 60_000,
      maxBuffer: 32 * 1024 * 1024,
    })
    return stdout
  } finally {
    rmSync(profile, { recursive: true, force: true })
  }
}
