/**
 * Scry's error model. A few classes grouped by what the caller does with them:
 * - `RetryableError`: try again (possibly on another endpoint) after a backoff.
 * - `NonRetryableError`: give up on this operation; the message says why.
 * - `ConfigError`: the operator must change the configuration; printed without a stack.
 * - `FatalIndexerError`: a chain's indexer must stop (e.g. a reorg deeper than finality).
 *
 * `shortMessage` is what a person reads; `details` adds context; `cause` keeps the chain.
 * Never put secrets (API keys, RPC URLs with tokens) into any of them.
 */
export type BaseErrorOptions = { details?: string; cause?: unknown; code?: string }

export class BaseError extends Error {
  override name = 'BaseError'
  readonly shortMessage: string
  readonly details: string | undefined
  readonly code: string | undefined

  constructor(shortMessage: string, { details, cause, code }: BaseErrorOptions = {}) {
    super(details ? `${shortMessage}\n\nDetails: ${details}` : shortMessage, { cause })
    this.shortMessage = shortMessage
    this.details = details
    this.code = code
  }
}

export class RetryableError extends BaseError {
  override name = 'RetryableError'
}

export class NonRetryableError extends BaseError {
  override name = 'NonRetryableError'
}

export class ConfigError extends BaseError {
  override name = 'ConfigError'
}

export class FatalIndexerError extends BaseError {
  override name = 'FatalIndexerError'
}
