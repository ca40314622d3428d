import type { ChildProcess } from 'node:child_process'
import { exited, spawnScryStart } from './spawnScryStart.ts'

/** The last this many characters of each child's stderr are kept, for failure messages. */
const STDERR_KEPT = 4_000

/** `scry start` children of one test, every one SIGKILLed by `stopAll` whatever happened. */
export function scryProcesses() {
  const all = new Set<ChildProcess>()
  const ended = new Map<number, string>()
  return {
    start(args: Parameters<typeof spawnScryStart>[0]): ChildProcess {
      const child = spawnScryStart(args)
      all.add(child)
      let stderr = ''
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString()).slice(-STDERR_KEPT)
      })
      child.once('exit', (code, signal) => {
        all.delete(child)
        if (child.pid !== undefined) {
          ended.set(child.pid, `exited (code ${code}, signal ${signal}); stderr: ${stderr || '-'}`)
        }
      })
      return child
    },
    /** How a child of this test ended, or that it runs (a test that finds a pid gone says why). */
    fateOf(pid: number): string {
      return `pid ${pid} ${ended.get(pid) ?? 'still running, or not a child of this test'}`
    },
    async stopAll(): Promise<void> {
      for (const child of all) child.kill('SIGKILL')
      await Promise.all([...all].map(exited))
    },
  }
}
