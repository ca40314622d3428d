import { BaseError } from '../internal/errors.ts'

/**
 * Writes an error for a person at a terminal. Scry's own errors (`BaseError`) are expected
 * outcomes: their message only, never a stack. Anything else is a bug: say so, and show the
 * stack only when asked (`SCRY_DEBUG=1`).
 */
export function reportError({
  error,
  write,
  debug,
}: {
  error: unknown
  write: (text: string) => void
  debug: boolean
}): void {
  if (error instanceof BaseError) {
    const lines = [`error: ${error.shortMessage}`]
    if (error.details) lines.push(error.details)
    // A cause the details already say is not said twice.
    if (error.cause instanceof BaseError && error.cause.shortMessage !== error.details)
      lines.push(`cause: ${error.cause.shortMessage}`)
    write(`${lines.join('\n')}\n`)
    return
  }
  const message = error instanceof Error ? error.message : String(error)
  const firstLine = message.split('\n')[0] ?? message
  if (debug && error instanceof Error && error.stack) {
    write(`error: ${firstLine}\n${error.stack}\nThis is a bug in Scry; please report it.\n`)
    return
  }
  write(
    `error: ${firstLine}\nThis is a bug in Scry; please report it (run with SCRY_DEBUG=1 to see the stack trace).\n`,
  )
}
