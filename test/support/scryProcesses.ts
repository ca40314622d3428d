import type { ChildProcess } from 'node:child_process'
import { exited, spawnScryStart } from './spawnScryStart.ts'

/** `scry start` children of one test, every one SIGKILLed by `stopAll` whatever happened. */
export function scryProcesses() {
  const all = new Set<ChildProcess>()
  return {
    start(args: Parameters<typeof spawnScryStart>[0]): ChildProcess {
      const child = spawnScryStart(args)
      all.add(child)
      child.once('exit', () => all.delete(child))
      return child
    },
    async stopAll(): Promise<void> {
      for (const child of all) child.kill('SIGKILL')
      await Promise.all([...all].map(exited))
    },
  }
}
