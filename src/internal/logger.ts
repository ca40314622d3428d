import pino from 'pino'

export type Logger = pino.Logger

/**
 * Structured JSON logs (pino), short sentence-case messages, snake_case fields. `destination`
 * is a file path or a file descriptor (default stdout).
 */
export function createLogger({
  level = 'info',
  destination = 1,
}: {
  level?: string
  destination?: string | number
} = {}): Logger {
  return pino(
    { level, base: null, timestamp: pino.stdTimeFunctions.isoTime },
    pino.destination({ dest: destination, sync: false, mkdir: true }),
  )
}

/** A logger that drops everything (tests, library use). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' })
}
