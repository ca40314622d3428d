import { access, readFile } from 'node:fs/promises'
import { extname, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { tsImport } from 'tsx/esm/api'

export type LoadedConfigFile =
  | { type: 'none' }
  | { type: 'loaded'; path: string; content: unknown }
  | { type: 'failed'; path: string | undefined; issue: string }

const DEFAULT_NAMES = ['scry.config.ts', 'scry.config.json']
const MODULE_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs']

/**
 * Finds and reads the config file: `explicit` (from `--config` or `SCRY_CONFIG`, named by
 * `source` in messages) or else `scry.config.ts` / `scry.config.json` in `cwd`. JSON is
 * parsed; a module is imported through tsx (TypeScript, ESM or CommonJS) and its default
 * export used.
 */
export async function loadConfigFile({
  explicit,
  source,
  cwd,
}: {
  explicit: string | undefined
  source: string
  cwd: string
}): Promise<LoadedConfigFile> {
  let path: string
  if (explicit !== undefined) {
    path = resolve(cwd, explicit)
    if (!(await exists(path)))
      return { type: 'failed', path: undefined, issue: `${source}: file not found: ${explicit}` }
  } else {
    const found: string[] = []
    for (const name of DEFAULT_NAMES) if (await exists(resolve(cwd, name))) found.push(name)
    if (found.length === 0) return { type: 'none' }
    if (found.length > 1)
      return {
        type: 'failed',
        path: undefined,
        issue: `config file: found both ${found.join(' and ')}; keep one, or pick one with --config`,
      }
    path = resolve(cwd, found[0]!)
  }

  const extension = extname(path)
  if (extension === '.json') {
    let text: string
    try {
      text = await readFile(path, 'utf8')
    } catch (error) {
      // A directory, or a file this user may not read.
      return { type: 'failed', path, issue: `config file: cannot read: ${messageOf(error)}` }
    }
    try {
      return { type: 'loaded', path, content: JSON.parse(text) }
    } catch (error) {
      return { type: 'failed', path, issue: `config file: ${describeJsonError(text, error)}` }
    }
  }
  if (MODULE_EXTENSIONS.includes(extension)) {
    let content: unknown
    try {
      // tsx's own import, not `import()`: a .ts file outside an ESM package (no package.json
      // with "type": "module" next to it) is loaded as CommonJS, which the ESM hooks that
      // bin/scry.js registers do not transform.
      const module = await tsImport(pathToFileURL(path).href, import.meta.url)
      content = module.default
      // CommonJS interop wraps the default export once more.
      if (typeof content === 'object' && content !== null && '__esModule' in content)
        content = (content as { default?: unknown }).default
    } catch (error) {
      return { type: 'failed', path, issue: `config file: cannot load: ${messageOf(error)}` }
    }
    if (content === undefined)
      return {
        type: 'failed',
        path,
        issue: 'config file: expected a default export with the configuration object',
      }
    return { type: 'loaded', path, content }
  }
  return {
    type: 'failed',
    path,
    issue: `${source}: expected a .json, .ts, .mts, .js or .mjs file, got ${explicit}`,
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path)
    return true
  } catch {
    return false
  }
}

function messageOf(error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ')
  return message.length > 300 ? `${message.slice(0, 300)}…` : message
}

// V8's JSON messages quote the surrounding text, which may hold an RPC URL with a key: report
// only where the syntax error is.
function describeJsonError(text: string, error: unknown): string {
  const position = /position ([0-9]+)/.exec(error instanceof Error ? error.message : '')
  if (!position) return 'invalid JSON'
  const before = text.slice(0, Number(position[1])).split('\n')
  return `invalid JSON at line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`
}
