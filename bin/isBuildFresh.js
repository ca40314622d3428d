import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** The file `npm run build` (scripts/build.ts) leaves in dist/, dated when the build started. */
export const BUILD_STAMP = '.built'

/**
 * Whether `<root>/dist` was built after every change to `<root>/src`: no file or directory
 * there is newer than the stamp. Test files do not count (the build leaves them out); a
 * directory's time moves when a file in it is added, removed or renamed. About 300 `stat`s,
 * a few milliseconds.
 * @param {string} root
 * @returns {boolean}
 */
export function isBuildFresh(root) {
  let built
  try {
    built = statSync(join(root, 'dist', BUILD_STAMP)).mtimeMs
  } catch {
    return false
  }
  const src = join(root, 'src')
  if (statSync(src).mtimeMs > built) return false
  for (const path of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
    if (path.endsWith('.test.ts')) continue
    if (statSync(join(src, path)).mtimeMs > built) return false
  }
  return true
}
