import { mkdirSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'

/**
 * `mkdir -p`: `path` and its missing parents, one level at a time. Node's recursive `mkdirSync`
 * loops for ever under a directory that answers ENOENT to creating a child it cannot hold
 * (`/proc/x/y`: /proc exists, /proc/x "does not exist" and cannot be made); one level at a time,
 * that is an error naming the path.
 */
export function makeDirectorySync(path: string): void {
  const missing: string[] = []
  for (let at = resolve(path); ; at = dirname(at)) {
    try {
      statSync(at)
      break
    } catch {
      missing.push(at)
      if (dirname(at) === at) break
    }
  }
  for (const dir of missing.reverse()) {
    try {
      mkdirSync(dir)
    } catch (error) {
      // Made meanwhile by another process: as good.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
  }
}
