import { BaseError } from '../internal/errors.ts'

export type ApiErrorCode =
  | 'BAD_REQUEST'
  | 'HTTPS_REQUIRED'
  | 'UNAUTHORIZED'
  | 'QUOTA_EXCEEDED'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'HISTORICAL_STATE_UNAVAILABLE'
  | 'PAYLOAD_TOO_LARGE'
  | 'HEADERS_TOO_LARGE'
  | 'RATE_LIMITED'
  | 'INTERNAL_SERVER_ERROR'
  | 'UNAVAILABLE'

const STATUS: Record<ApiErrorCode, number> = {
  BAD_REQUEST: 400,
  HTTPS_REQUIRED: 400,
  UNAUTHORIZED: 401,
  QUOTA_EXCEEDED: 402,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  HISTORICAL_STATE_UNAVAILABLE: 422,
  PAYLOAD_TOO_LARGE: 413,
  HEADERS_TOO_LARGE: 431,
  RATE_LIMITED: 429,
  INTERNAL_SERVER_ERROR: 500,
  UNAVAILABLE: 503,
}

/**
 * An error the API answers with. The stable `code` decides the status and body shape
 * (spec/decisions.md "Errors"); `message` is for the caller and never carries internals.
 */
export class ApiError extends BaseError {
  override name = 'ApiError'
  readonly status: number
  readonly apiCode: ApiErrorCode
  /** Extra response headers (Retry-After, …). */
  readonly headers: Record<string, string>

  constructor(
    apiCode: ApiErrorCode,
    message: string,
    { headers = {}, cause }: { headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { code: apiCode, cause })
    this.apiCode = apiCode
    this.status = STATUS[apiCode]
    this.headers = headers
  }
}

/** Body of an error response, per decisions.md; SVM endpoints use `{ message }`. */
export function errorBody(error: ApiError, { svm = false }: { svm?: boolean } = {}): unknown {
  switch (error.apiCode) {
    case 'UNAUTHORIZED':
    case 'QUOTA_EXCEEDED':
    case 'RATE_LIMITED':
      return { error: error.shortMessage }
    default:
      // decisions.md: the SVM endpoints answer 503 with exactly "Try again later".
      if (svm)
        return { message: error.apiCode === 'UNAVAILABLE' ? 'Try again later' : error.shortMessage }
      return { error: { message: error.shortMessage, code: error.apiCode } }
  }
}
